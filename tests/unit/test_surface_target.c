/* The printer on target-language terms at scale: the forward and reverse
 * CHAD transformations (raw and simplified) of every def of the example
 * programs print without unbound variables or truncation, with balanced
 * brackets, deterministically, and every binder name is fresh; and each
 * printed term parses back (target syntax) to the same arena term. */
#include <ctype.h>
#include <dirent.h>

#include "chad/chad.h"
#include "test_surface_util.h"

static const char *const inline_programs[] = {
  "def f (x : real, y : real) : real =\n  let z = x * y in\n  sin z + exp x",
  "def f (p : real * (int * bool)) = let (x, q) = p in let (n, b) = q in\n"
  "  if b && n > 2 then x * toreal n else -x",
  "def f (x : real) = [x, x * 2.0, -x, 0.0, 1e-3]",
  "def f (x : real) = iter 10 (fun (s : real * real) -> (snd s, fst s + snd s)) (0.0, x)",
  "def f (s : real + [real]) : real = case s of inl r -> r | inr a -> a[length a - 1]",
  "def f (x : real) = (fun (g : real -> real) -> g (g x)) (fun y -> y * y)",
  "def f (m : [[real]], v : [real]) = logsumexp (vadd (matvec m v) (vscale 2.0 v))",
  "def f (a : [real]) = map sin (build (length a) (fun i -> a[i] * toreal i))",
};

static int balanced(const char *s)
{
  char stack[4096];
  int n = 0;
  for (; *s; s++) {
    if (*s == '(' || *s == '[' || *s == '{') {
      if (n == (int)sizeof stack)
        return 0;
      stack[n++] = *s;
    } else if (*s == ')' || *s == ']' || *s == '}') {
      char o = *s == ')' ? '(' : *s == ']' ? '[' : '{';
      if (n == 0 || stack[--n] != o)
        return 0;
    }
  }
  return n == 0;
}

/* Every name bound by "fun (x", "lfun (x", "let x", "inl x ->", "with (x",
 * "fun x" appears bound once (fresh names are never reused). */
static int binders_unique(const char *s)
{
  /* a binder is the word after `intro`, followed by `after` */
  static const struct { const char *intro, *after; } pat[] = {
    {"fun (", " :"}, {"lfun (", " :"}, {"with (", " :"}, {") (", " :"}, {"let ", " ="},
    {"inl ", " ->"}, {"inr ", " ->"}, {"fun ", " ->"},
  };
  char names[4096][24];
  int n = 0;
  for (const char *q = s; *q; q++) {
    for (size_t k = 0; k < sizeof pat / sizeof pat[0]; k++) {
      size_t L = strlen(pat[k].intro);
      if (strncmp(q, pat[k].intro, L) != 0 || (q > s && (isalnum((unsigned char)q[-1]) || q[-1] == '_')))
        continue;
      const char *w = q + L;
      size_t m = 0;
      while ((isalnum((unsigned char)w[m]) || w[m] == '_') && m < 23)
        m++;
      if (m == 0 || !isalpha((unsigned char)w[0]) || strncmp(w + m, pat[k].after, strlen(pat[k].after)) != 0)
        continue;
      char name[24];
      memcpy(name, w, m);
      name[m] = 0;
      for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) {
          fprintf(stderr, "binder '%s' bound twice\n", name);
          return 0;
        }
      if (n < 4096)
        strcpy(names[n++], name);
    }
  }
  return 1;
}

static int printed, round_trips;

/* The printed target term, as a def, parses back (target syntax) and
 * elaborates to the same arena structure. */
static void check_round_trip(const char *what, int t, int nparams, const char *const *names)
{
  char *s = surf_print_def_named("d", nparams, names, t);
  if (!s) {
    CHECK(0, "%s: print as a def", what);
    return;
  }
  chad_diag d;
  surf_program *p = surf_parse_string(s, "printed", &d);
  int t2 = -1, c2;
  int ok = p && surf_elab_def(p, 0, &t2, &c2, &d) == CHAD_EXIT_OK;
  CHECK(ok, "%s: the printed target term parses and elaborates: %d:%d: %s\n%s", what, d.line, d.col, d.msg, s);
  if (ok) {
    CHECK(t2 != t && tm_same(t, t2), "%s: parsed back to the same term:\n%s", what, s);
    round_trips++;
  }
  surf_free(p);
  free(s);
}

static void check_target(const char *what, int t, int nparams, const char *const *names)
{
  if (t < 0) {
    CHECK(0, "%s: the transformation failed (%d)", what, t);
    return;
  }
  char *s = surf_print_term(t, nparams, names);
  char *s2 = surf_print_term(t, nparams, names);
  CHECK(s && s2 && strcmp(s, s2) == 0, "%s: printing is deterministic", what);
  if (s) {
    CHECK(!strstr(s, "<unbound>") && !strstr(s, "<bad") && !strstr(s, "<term kind") && !strstr(s, "..."),
          "%s: every variable bound, no truncation:\n%s", what, s);
    CHECK(balanced(s), "%s: balanced brackets:\n%s", what, s);
    CHECK(binders_unique(s), "%s: fresh binder names:\n%s", what, s);
    printed++;
  }
  free(s);
  free(s2);
  check_round_trip(what, t, nparams, names);
}

static void check_program(const char *src, const char *label)
{
  chad_diag d;
  surf_program *p = surf_parse_string(src, label, &d);
  CHECK(p != NULL, "%s parses: %s", label, d.msg);
  if (!p)
    return;
  for (int k = 0; k < surf_def_count(p); k++) {
    int t, c;
    if (surf_elab_def(p, k, &t, &c, &d) != CHAD_EXIT_OK) {
      CHECK(0, "%s: def %d elaborates: %s", label, k, d.msg);
      continue;
    }
    int n = surf_def_nparams(p, k);
    const char *names[SURF_MAX_PARAMS];
    for (int i = 0; i < n; i++)
      names[i] = surf_def_param_name(p, k, i);
    char what[256];
    int f = chad_fwd(t), r = chad_rev(t);
    snprintf(what, sizeof what, "%s:%s fwd", label, surf_def_name(p, k));
    check_target(what, f, n, names);
    snprintf(what, sizeof what, "%s:%s rev", label, surf_def_name(p, k));
    check_target(what, r, n, names);
    snprintf(what, sizeof what, "%s:%s fwd simplified", label, surf_def_name(p, k));
    check_target(what, f >= 0 ? chad_simplify(f) : f, n, names);
    snprintf(what, sizeof what, "%s:%s rev simplified", label, surf_def_name(p, k));
    check_target(what, r >= 0 ? chad_simplify(r) : r, n, names);
  }
  surf_free(p);
}

/* Parses src and elaborates its def k: the exit code (CHAD_EXIT_INPUT with
 * d's message if it does not parse), the term in *t */
static int elab_source(const char *src, const char *name, int k, int *t, chad_diag *d)
{
  surf_program *p = surf_parse_string(src, name, d);
  if (!p)
    return CHAD_EXIT_INPUT;
  int g = -1;
  int rc = surf_elab_def(p, k, t, &g, d);
  surf_free(p);
  return rc;
}

static char *slurp(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  if (fseek(f, 0, SEEK_END) != 0) {
    fclose(f);
    return NULL;
  }
  long n = ftell(f);
  rewind(f);
  char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  if (b)
    b[n] = 0;
  return b;
}

int main(void)
{
  surf_test_init();
  chad_init();
  printf("target printer: fwd/rev (raw and simplified) of every def print well-formed and parse back\n");
  /* the checkers themselves can fail */
  CHECK(balanced("f (a[i]) {x}") && !balanced("(a]") && !balanced("((a)"), "balanced() works");
  CHECK(binders_unique("let x = 1.0 in let y = fun (z : real) -> z in y x") &&
            !binders_unique("let x = 1.0 in let x = 2.0 in x") &&
            !binders_unique("fun (x : real) -> lfun (x : real) -> x") &&
            !binders_unique("case s of inl a -> a | inr a -> a"),
        "binders_unique() works");
  {
    /* tm_same itself can fail */
    chad_diag d;
    const char *src = "def a (x : real) = lfun (y : real) -> DT[mul]((x, 2.0); y)\n"
                      "def b (x : real) = lfun (y : real) -> DT[mul]((x, 2.0); y)\n"
                      "def c (x : real) = lfun (y : real) -> DT[mul]((x, 3.0); y)\n"
                      "def e (x : real) = lfun (y : real) -> DT[mul]((2.0, x); y)\n";
    surf_program *p = surf_parse_string(src, "same", &d);
    int t[4], g;
    int ok = p != NULL;
    for (int k = 0; ok && k < 4; k++)
      ok = surf_elab_def(p, k, &t[k], &g, &d) == CHAD_EXIT_OK;
    CHECK(ok, "tm_same's programs elaborate: %s", d.msg);
    if (ok)
      CHECK(t[0] != t[1] && tm_same(t[0], t[1]) && !tm_same(t[0], t[2]) && !tm_same(t[0], t[3]),
            "tm_same() works");
    surf_free(p);
  }
  {
    /* A failed subterm fails its def, even where another term would fit:
     * an index of a non-array as the argument of a function of real, in a
     * def whose body's context, [real, real], is that of term 0 (a real
     * variable, made by chad_init): a failure that returned a term index (0)
     * instead of -1 would let the def elaborate */
    int rr = ctx_extend(ctx_extend(CTX_EMPTY, TY_ID_REAL), TY_ID_REAL);
    CHECK(tm_count > 0 && tm_ctx(0) == rr && tm_type(0) == TY_ID_REAL, "term 0 is a real in [real, real]");
    const char *src = "def g (a : real, b : real) = zero{real} <+> (fun (u : real) -> 1.0) ((1.0)[0])\n";
    chad_diag d;
    int t = -1, rc = elab_source(src, "idx", 0, &t, &d);
    CHECK(rc == CHAD_EXIT_INPUT && d.line == 1 && strstr(d.msg, "type mismatch: expected an array, found real"),
          "an index of a real fails its def (%d: %d:%d: %s)", rc, d.line, d.col, d.msg);
  }
  {
    /* A def that a target def uses is elaborated against its declared
     * result type: the other side of g's inl comes from it alone */
    const char *src = "def g (x : real) : real + int = inl x\n"
                      "def f (x : real) = case g x of inl a -> lfun (y : real) -> DT[mul]((a, 2.0); y)\n"
                      "  | inr n -> lfun (y : real) -> DT[mul]((x, 2.0); y)\n";
    chad_diag d;
    int t = -1, rc = elab_source(src, "used", 1, &t, &d);
    CHECK(rc == CHAD_EXIT_OK && t >= 0, "a target def using a def whose inl needs its result type (%d: %s)", rc,
          rc ? d.msg : "");
  }
  for (size_t i = 0; i < sizeof inline_programs / sizeof inline_programs[0]; i++) {
    char label[32];
    snprintf(label, sizeof label, "inline%zu", i);
    check_program(inline_programs[i], label);
  }
  {
    /* A chain of 60 lets: its raw reverse program nests 100s of blocks, yet no
     * line is indented past the printer's cap (40), and it parses back. */
    char src[8192];
    int n = snprintf(src, sizeof src, "def chain (x : real) : real =\n");
    for (int k = 0; k < 60; k++) {
      char prev[16];
      if (k) snprintf(prev, sizeof prev, "y%d", k - 1);
      else snprintf(prev, sizeof prev, "x");
      n += snprintf(src + n, sizeof src - (size_t)n, "  let y%d = %s * 1.5 in\n", k, prev);
    }
    snprintf(src + n, sizeof src - (size_t)n, "  y59\n");
    chad_diag d;
    surf_program *p = surf_parse_string(src, "chain", &d);
    int t = -1, g;
    int ok = p && surf_elab_def(p, 0, &t, &g, &d) == CHAD_EXIT_OK;
    CHECK(ok, "the chain of 60 lets elaborates: %s", d.msg);
    int r = ok ? chad_rev(t) : -1;
    const char *names[] = {"x"};
    char *s = r >= 0 ? surf_print_term(r, 1, names) : NULL;
    CHECK(s != NULL, "the chain's raw reverse program prints");
    int maxind = 0, lines = 0;
    for (const char *l = s; l && *l; lines++) {
      int ind = 0;
      while (l[ind] == ' ') ind++;
      if (ind > maxind) maxind = ind;
      const char *e = strchr(l, '\n');
      l = e ? e + 1 : l + strlen(l);
    }
    CHECK(lines > 100 && maxind == 40, "indentation capped at 40 (deepest: %d, %d lines)", maxind, lines);
    free(s);
    if (r >= 0) check_target("chain of 60 lets rev", r, 1, names);
    surf_free(p);
  }
  int files = 0;
  DIR *dir = opendir("examples");
  if (dir) {
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
      size_t len = strlen(e->d_name);
      if (len < 6 || strcmp(e->d_name + len - 5, ".chad") != 0)
        continue;
      char path[512];
      snprintf(path, sizeof path, "examples/%s", e->d_name);
      char *src = slurp(path);
      CHECK(src != NULL, "read %s", path);
      if (src)
        check_program(src, path);
      free(src);
      files++;
    }
    closedir(dir);
  }
  CHECK(files > 0, "examples/*.chad found (run from the project root)");
  printf("target printer: %d example files, %d terms printed, %d parsed back to the same term\n", files, printed,
         round_trips);
  printf("test_surface_target: %d checks, %d failed\n", n_checks, n_failed);
  return n_failed ? 1 : 0;
}
