/* Bounded random-mutation test of the surface front end: valid programs get
 * random byte and token mutations (fixed, printed seed); parsing and
 * elaborating each must either succeed or return a CHAD_EXIT_INPUT
 * diagnostic with a file:line:col position, never crash (run under
 * ASan/UBSan by `make test`). Every mutant that elaborates must also print
 * and parse back to the same term. */
#include <time.h>

#include "test_surface_util.h"

static const char *const seeds[] = {
  "def f (x : real, y : real) : real =\n  let z = x * y in\n  sin z + exp x\n",
  "# squares\ndef sq (x : real) : real = x * x\n"
  "def norm (a : [real]) : real = sqrt (sum (map (fun (x : real) -> sq x) a))\n"
  "def f (a : [real], s : real) : real = norm a * s - sq s\n",
  "def f (p : real * (int * bool)) = let (x, q) = p in let (n, b) = q in\n"
  "  if b && n > 2 then x * toreal n else -x\n",
  "def f (x : real) = [x, x * 2.0, -x, 0.0, 1e-3]\n",
  "def f (n : int) = build n (fun i -> if i % 2 == 0 then toreal i else -(toreal i))\n",
  "def f (x : real) = iter 10 (fun (s : real * real) -> (snd s, fst s + snd s)) (0.0, x)\n",
  "def f (s : real + [real]) : real = case s of inl r -> r | inr a -> a[length a - 1]\n",
  "def f (x : real) = (fun (g : real -> real) -> g (g x)) (fun y -> y * y)\n",
  "def f (m : [[real]], v : [real]) = logsumexp (vadd (matvec m v) (vscale 2.0 v))\n",
  "(* comment (* nested *) *)\ndef c : int = 3\ndef g (x : real) : real = x * toreal c\n"
  "def f (x : real) = iter c (fun (y : real) -> g y) x\n",
  "def f (b : bool, x : real) = if not b || x < 0.0 then (if x == 0.0 then 1.0 else 2.0) else 3.0\n",
  "def f (x : real) = let k = pow x in let s = sin in (k (s x) + max x 1.0, @add (x, x), ([] : [real]))\n",
  "def f (p : real * (real * real), s : (real * real) + real) =\n"
  "  let (a, (b, _)) = p in let g = fun ((x : real, y : real), z : real) -> x * y - z in\n"
  "  g ((a, b), a) + (case s of inl (u, v) -> u * v | inr w -> w)\n",
  "def f (a : [real], b : [real], x : real) = let (u, v) = unzip (zip (concat (reverse a) b) (range 3)) in\n"
  "  fold (length u) (fun i acc -> acc + u[i] * toreal v[i]) (sum (slice (update a 0 x) 1 1))\n",
};

static const char *const tokens[] = {
  "(", ")", "[", "]", ",", ":", "=", "->", "|", "+", "-", "*", "/", "%", "<", "<=", "==", ">",
  ">=", "&&", "||", "@", "def ", "let ", " in ", "fun ", "case ", " of ", "inl ", "inr ", "if ",
  " then ", " else ", "fst ", "snd ", "true", "false", "not ", "iter ", "build ", "map ", "sum ",
  "length ", "real", "int", "unit", "bool", "x", "y", "f", "sin ", "pow ", "0", "1.5", "(*", "*)",
  "#", "\n", " ", "()", "_", "9999999999999999999", "1e400", "\"", "\t",
  "concat ", "slice ", "reverse ", "update ", "zip ", "unzip ", "range ", "fold ", " with ", "(a, b)",
};

static uint64_t state;
static unsigned rnd(unsigned n)
{
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (unsigned)(state % n);
}

static size_t mutate(char *buf, size_t len, size_t cap)
{
  int k = 1 + (int)rnd(2);
  for (int m = 0; m < k; m++) {
    size_t pos = len ? rnd((unsigned)len + 1) : 0;
    switch (rnd(6)) {
    case 0: /* replace a byte with any byte */
      if (len) buf[pos % len] = (char)rnd(256);
      break;
    case 1: /* delete a range */
      if (len) {
        size_t n = 1 + rnd(8);
        if (pos + n > len) n = len - pos;
        memmove(buf + pos, buf + pos + n, len - pos - n);
        len -= n;
      }
      break;
    case 2: { /* insert a token */
      const char *t = tokens[rnd(sizeof tokens / sizeof tokens[0])];
      size_t n = strlen(t);
      if (len + n < cap) {
        memmove(buf + pos + n, buf + pos, len - pos);
        memcpy(buf + pos, t, n);
        len += n;
      }
      break;
    }
    case 3: /* duplicate a range */
      if (len) {
        size_t from = rnd((unsigned)len), n = 1 + rnd(16);
        if (from + n > len) n = len - from;
        if (len + n < cap) {
          char tmp[16];
          memcpy(tmp, buf + from, n);
          memmove(buf + pos + n, buf + pos, len - pos);
          memcpy(buf + pos, tmp, n);
          len += n;
        }
      }
      break;
    case 4: /* swap two bytes */
      if (len > 1) {
        size_t q = rnd((unsigned)len);
        pos %= len;
        char c = buf[pos];
        buf[pos] = buf[q];
        buf[q] = c;
      }
      break;
    default: /* insert a printable byte */
      if (len + 1 < cap) {
        memmove(buf + pos + 1, buf + pos, len - pos);
        buf[pos] = (char)(32 + rnd(95));
        len++;
      }
      break;
    }
  }
  return len;
}

int main(int argc, char **argv)
{
  uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 0x5EEDC0DEull;
  int iters = argc > 2 ? atoi(argv[2]) : 40000;
  state = seed ? seed : 1;
  printf("mutate: %d mutants of %zu valid programs, seed 0x%llx (rerun: test_surface_mutate 0x%llx %d)\n",
         iters, sizeof seeds / sizeof seeds[0], (unsigned long long)seed, (unsigned long long)seed, iters);
  surf_test_init();
  clock_t t0 = clock();
  int accepted = 0, rejected_parse = 0, rejected_type = 0;
  enum { CAP = 8192 };
  static char buf[CAP];
  for (int it = 0; it < iters; it++) {
    if (it % 500 == 0)
      surf_test_init(); /* keep every arena small */
    const char *s = seeds[rnd(sizeof seeds / sizeof seeds[0])];
    size_t len = strlen(s);
    memcpy(buf, s, len);
    len = mutate(buf, len, CAP);
    chad_diag d;
    surf_program *p = surf_parse_buffer(buf, len, "m.chad", &d);
    if (!p) {
      CHECK(d.exit_code == CHAD_EXIT_INPUT && d.line >= 1 && d.col >= 1 && d.msg[0],
            "parse error without a position (iteration %d): %d:%d %s", it, d.line, d.col, d.msg);
      rejected_parse++;
      continue;
    }
    for (int k = 0; k < surf_def_count(p) && k < 8; k++) {
      int term, ctx;
      int rc = surf_elab_def(p, k, &term, &ctx, &d);
      if (rc != CHAD_EXIT_OK) {
        CHECK(rc == CHAD_EXIT_INPUT && d.line >= 1 && d.col >= 1 && d.msg[0] &&
                  strstr(d.msg, "internal error") == NULL,
              "elaboration error without a position (iteration %d): %d:%d %s\n%.*s", it, d.line, d.col,
              d.msg, (int)len, buf);
        rejected_type++;
        continue;
      }
      accepted++;
      char *text = surf_print_def(p, k, term);
      chad_diag d2;
      int t2, c2;
      int rc2 = text ? elab_src(text, NULL, &t2, &c2, &d2) : -1;
      CHECK(rc2 == CHAD_EXIT_OK && c2 == ctx && tm_same(term, t2),
            "mutant's printed form does not round-trip (iteration %d):\n%s", it, text ? text : "(null)");
      free(text);
    }
    surf_free(p);
    if (n_failed > 10)
      break;
  }
  printf("mutate: %d defs elaborated, %d parse errors, %d type errors, %.2f s\n", accepted, rejected_parse,
         rejected_type, (double)(clock() - t0) / CLOCKS_PER_SEC);
  CHECK(accepted > 0 && rejected_parse > 0 && rejected_type > 0, "the mutants exercise every outcome");
  printf("test_surface_mutate: %d checks, %d failed\n", n_checks, n_failed);
  return n_failed ? 1 : 0;
}
