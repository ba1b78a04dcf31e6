/* libchad's export command: a definition as a program of another system
 * (src/export/, spec/export.md). */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "chad/json.h"
#include "export/export.h"

static int export_impl(chad_prog *p, const char *fn, const char *target, char **out, chad_diag *d) {
  int pre = api_check(p, out, d);   /* the preconditions of every command (chad.h) */
  if (pre) return pre;
  int adolc = target && strcmp(target, "adolc") == 0;
  if (!target || (strcmp(target, "torch") != 0 && !adolc))
    return diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "export: the targets are torch and adolc, not '%s'",
                    target ? target : "");
  int k = chad_fn(p, fn, d);
  if (k < 0) return -k;
  fn_info fi;
  int rc = api_elab(p, k, 0, &fi, d);
  if (rc) return rc;
  chad_buf b;
  buf_init(&b);
  const char *unsupported = NULL;
  int (*exporter)(const char *, int, const char *const *, const int *, int, const char *, chad_buf *,
                  const char **) = adolc ? export_adolc : export_torch;
  if (exporter(fi.name, fi.n, fi.names, fi.tys, fi.term, p->file, &b, &unsupported) < 0) {
    buf_free(&b);
    if (!unsupported)
      return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory exporting");
    return diag_set(d, CHAD_EXIT_INPUT, p->file, fi.line, 1, "export --to %s: '%s' uses %s, which has no %s export",
                    target, fi.name, unsupported, adolc ? "ADOL-C" : "PyTorch");
  }
  if (b.oom || !b.data) {
    buf_free(&b);
    return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory exporting");
  }
  *out = b.data;
  return 0;
}

/* on a large stack (api_stack.c) */
static int export_run(api_call *c) { return export_impl(c->p, c->fn, c->a, c->out, c->d); }
int chad_export(chad_prog *p, const char *fn, const char *target, char **out, chad_diag *d) {
  api_call c = {export_run, p, fn, target, NULL, 0, out, d, 0};
  return api_deep(&c);
}
