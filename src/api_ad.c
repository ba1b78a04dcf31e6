/* libchad's derivative commands (fwd, rev, jvp, vjp, grad, jacobian). */
#include "api_internal.h"

static int not_yet(chad_diag *d, const char *what) {
  return diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "%s is not available in this build yet", what);
}

int chad_print_fwd(chad_prog *p, const char *fn, int raw, char **out, chad_diag *d) {
  (void)p; (void)fn; (void)raw; (void)out;
  return not_yet(d, "fwd");
}
int chad_print_rev(chad_prog *p, const char *fn, int raw, char **out, chad_diag *d) {
  (void)p; (void)fn; (void)raw; (void)out;
  return not_yet(d, "rev");
}
int chad_jvp(chad_prog *p, const char *fn, const chad_json *args, const chad_json *tangent,
             char **out, chad_diag *d) {
  (void)p; (void)fn; (void)args; (void)tangent; (void)out;
  return not_yet(d, "jvp");
}
int chad_vjp(chad_prog *p, const char *fn, const chad_json *args, const chad_json *cotangent,
             char **out, chad_diag *d) {
  (void)p; (void)fn; (void)args; (void)cotangent; (void)out;
  return not_yet(d, "vjp");
}
int chad_grad(chad_prog *p, const char *fn, const chad_json *args, char **out, chad_diag *d) {
  (void)p; (void)fn; (void)args; (void)out;
  return not_yet(d, "grad");
}
int chad_jacobian(chad_prog *p, const char *fn, const chad_json *args, int reverse,
                  char **out, chad_diag *d) {
  (void)p; (void)fn; (void)args; (void)reverse; (void)out;
  return not_yet(d, "jacobian");
}
