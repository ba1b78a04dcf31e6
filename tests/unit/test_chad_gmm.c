/* End to end on ADBench's GMM objective (examples/gmm.chad, parsed by the
 * surface front end, at ADBench's gmm/test.txt point, examples/gmm_test.json):
 * the reverse-mode gradient (one VJP) equals central finite differences in
 * every one of its 22 coordinates (alphas, means, icf), and the primal
 * equals ADBench's objective 8.07380408004975791. Run from the repository
 * root (make test does). */
#include <string.h>

#include "chad/json.h"
#include "chad/surface.h"
#include "chad_vals.h"

#include "check.h"

static char *slurp(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  static char buf[1 << 16];
  *len = fread(buf, 1, sizeof buf - 1, f);
  buf[*len] = 0;
  fclose(f);
  return buf;
}

int main(void)
{
  prog_setup();
  raw_init();
  H = heap_new((size_t)1 << 28);
  chad_diag d = {0};
  surf_program *p = surf_parse_file("examples/gmm.chad", &d);
  if (!p) {
    printf("FAIL: cannot parse examples/gmm.chad (run from the repository root): %s\n", d.msg);
    return 1;
  }
  int k = surf_def_find(p, "gmm"), term = -1, ctx = -1;
  CHECKM(k >= 0 && surf_elab_def(p, k, &term, &ctx, &d) == CHAD_EXIT_OK, "elaborate gmm: %s", d.msg);
  if (term < 0) return 1;
  int n = surf_def_nparams(p, k);
  int tys[16];
  const char *names[16];
  for (int i = 0; i < n; i++) {
    tys[i] = surf_def_param_type(p, k, i);
    names[i] = surf_def_param_name(p, k, i);
  }
  size_t len = 0;
  char *text = slurp("examples/gmm_test.json", &len);
  CHECKM(text != NULL, "read examples/gmm_test.json");
  if (!text) return 1;
  json_doc *doc = json_doc_parse(text, len, "examples/gmm_test.json", &d);
  const value *args[16];
  CHECKM(doc && json_doc_params(H, doc, n, tys, names, args, &d) == 0, "read parameters: %s", d.msg);
  const env *e = chad_params_env(H, n, args);

  const value *y = NULL, *J = NULL;
  int rc = chad_jacobian_values(H, term, e, CHAD_JAC_REVERSE, &y, &J, &d);
  CHECKM(rc == 0, "reverse gradient: %s", d.msg);
  if (rc) return 1;
  CHECKM(close_to(y->u.r, 8.07380408004975791, 1e-12), "objective %.17g", y->u.r);
  static double F[4096];
  int rows = 0, cols = 0;
  CHECKM(fd_jacobian(term, e, 1e-6, F, 4096, &rows, &cols) == 0, "finite differences");
  CHECKM(rows == 1 && J->u.arr.n == 1, "one row");
  /* coordinates of alphas, means, icf (x and gamma are constants here,
   * but their columns are checked as well) */
  int bad = 0;
  for (int j = 0; j < cols && j < J->u.arr.elems[0]->u.arr.n; j++)
    if (!close_to(jac_at(J, 0, j), F[j], 1e-5)) {
      if (bad++ < 5)
        printf("  column %d: chad %.12g, finite differences %.12g\n", j, jac_at(J, 0, j), F[j]);
    }
  CHECKM(bad == 0, "%d gradient coordinates differ from finite differences", bad);
  CHECKM(J->u.arr.elems[0]->u.arr.n == cols, "gradient length %lld vs %d",
         (long long)J->u.arr.elems[0]->u.arr.n, cols);
  printf("GMM (ADBench test.txt): objective %.15g, gradient of %d slots = finite differences\n",
         y->u.r, cols);
  json_doc_free(doc);
  surf_free(p);
  heap_free(H);
  printf("test_chad_gmm: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
