/* libchad's export command: a definition as a program of another system
 * (src/export/, spec/export.md). */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "chad/json.h"
#include "export/export.h"

int chad_export(chad_prog *p, const char *fn, const char *target, char **out, chad_diag *d) {
  if (!target || strcmp(target, "torch") != 0)
    return diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "export: the one target is torch, not '%s'",
                    target ? target : "");
  int k = chad_fn(p, fn, d);
  if (k < 0) return -k;
  fn_info fi;
  int rc = api_elab(p, k, &fi, d);
  if (rc) return rc;
  chad_buf b;
  buf_init(&b);
  const char *unsupported = NULL;
  if (export_torch(fi.name, fi.n, fi.names, fi.tys, fi.term, p->file, &b, &unsupported) < 0) {
    buf_free(&b);
    if (!unsupported)
      return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory exporting");
    return diag_set(d, CHAD_EXIT_INPUT, p->file, fi.line, 1,
                    "export --to torch: '%s' uses %s, which has no PyTorch export", fi.name,
                    unsupported);
  }
  if (b.oom || !b.data) {
    buf_free(&b);
    return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory exporting");
  }
  *out = b.data;
  return 0;
}
