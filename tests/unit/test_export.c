/* chad_export to ADOL-C (src/export/adolc.c) and to PyTorch (torch.c) on
 * one program with every kind of type: the C++ and the Python emitted for
 * it, whole (the types of pairs, sums, arrays, ints and local functions, a
 * case, a call, build, map, iter, the primitives), pinned as text so that any change of the
 * emitted code is seen. That such code runs and computes chad's numbers is
 * what the PyTorch and ADOL-C campaigns check (difftest/, make
 * test-difftest); this test is the cheap check of the text, run where the
 * campaigns are not (mutation runs). */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad.h"
#include "check.h"

static const char *src =
    "def f (p : real * real, s : real + unit, v : [real], n : int) : real =\n"
    "  let g = fun (x : real) -> x * 2.0 in\n"
    "  let (a, b) = p in a * b + g (case s of inl w -> w | inr u -> 0.0) + sum v + toreal n\n"
    "    + sum (build n (fun (i : int) -> toreal i)) + sum (map (fun (y : real) -> sin y) v) + iter n g 1.0\n";

static const char *want =
    "// ---- program ----\n"
    "namespace chad_program {\n"
    "// f\n"
    "static adouble function(std::pair<adouble, adouble> p0, chad::S<adouble, chad::Unit> p1, std::vector<adouble> p2, chad::I p3) {\n"
    "  std::function<adouble(adouble)> f0 = [=](adouble x1) -> adouble {\n"
    "    adouble c2 = 2;\n"
    "    adouble v3 = x1 * c2;\n"
    "    return v3;\n"
    "  };\n"
    "  std::function<adouble(adouble)> x4 = f0;\n"
    "  std::pair<adouble, adouble> x5 = p0;\n"
    "  adouble v6 = x5.first;\n"
    "  adouble x7 = v6;\n"
    "  adouble v8 = x5.second;\n"
    "  adouble x9 = v8;\n"
    "  adouble v10 = x7 * x9;\n"
    "  adouble v11;\n"
    "  if (p1.left) {\n"
    "    auto x12 = p1.l;\n"
    "    v11 = x12;\n"
    "  } else {\n"
    "    auto x13 = p1.r;\n"
    "    adouble c14 = 0;\n"
    "    v11 = c14;\n"
    "  }\n"
    "  adouble v15 = x4(v11);\n"
    "  adouble v16 = v10 + v15;\n"
    "  adouble v17 = chad::sum(p2);\n"
    "  adouble v18 = v16 + v17;\n"
    "  adouble v19 = chad::toreal(p3);\n"
    "  adouble v20 = v18 + v19;\n"
    "  std::function<adouble(chad::I)> elem21 = [=](chad::I x22) -> adouble {\n"
    "    adouble v23 = chad::toreal(x22);\n"
    "    return v23;\n"
    "  };\n"
    "  std::vector<adouble> v24 = chad::build(p3, elem21);\n"
    "  adouble v25 = chad::sum(v24);\n"
    "  adouble v26 = v20 + v25;\n"
    "  std::function<adouble(adouble)> elem27 = [=](adouble x28) -> adouble {\n"
    "    adouble v29 = sin(x28);\n"
    "    return v29;\n"
    "  };\n"
    "  std::vector<adouble> v30 = chad::map(elem27, p2);\n"
    "  adouble v31 = chad::sum(v30);\n"
    "  adouble v32 = v26 + v31;\n"
    "  adouble c33 = 1;\n"
    "  std::function<adouble(adouble)> step34 = [=](adouble x35) -> adouble {\n"
    "    adouble v36 = x4(x35);\n"
    "    return v36;\n"
    "  };\n"
    "  adouble v37 = chad::iter(p3, step34, adouble(c33));\n"
    "  adouble v38 = v32 + v37;\n"
    "  return v38;\n"
    "}\n"
    "static void run(std::istream &in, std::ostream &out) { chad::drive(function, in, out); }\n"
    "}  // namespace chad_program\n";

/* the same program's PyTorch export (src/export/torch.c), from its def on */
static const char *want_torch =
    "def f(p0, p1, p2, p3):\n"
    "    def f0(x1):\n"
    "        c2 = _real(2)\n"
    "        v3 = x1 * c2\n"
    "        return v3\n"
    "    x4 = f0\n"
    "    x5 = p0\n"
    "    v6 = x5[0]\n"
    "    x7 = v6\n"
    "    v8 = x5[1]\n"
    "    x9 = v8\n"
    "    v10 = x7 * x9\n"
    "    if p1[0] == 'inl':\n"
    "        x12 = p1[1]\n"
    "        v11 = x12\n"
    "    else:\n"
    "        x13 = p1[1]\n"
    "        c14 = _real(0)\n"
    "        v11 = c14\n"
    "    v15 = x4(v11)\n"
    "    v16 = v10 + v15\n"
    "    v17 = torch.sum(p2)\n"
    "    v18 = v16 + v17\n"
    "    v19 = _real(float(p3))\n"
    "    v20 = v18 + v19\n"
    "    def elem21(x22):\n"
    "        v23 = _real(float(x22))\n"
    "        return v23\n"
    "    v24 = _build(p3, elem21, True)\n"
    "    v25 = torch.sum(v24)\n"
    "    v26 = v20 + v25\n"
    "    def elem27(x28):\n"
    "        v29 = torch.sin(x28)\n"
    "        return v29\n"
    "    v30 = _map(elem27, p2, True)\n"
    "    v31 = torch.sum(v30)\n"
    "    v32 = v26 + v31\n"
    "    c33 = _real(1)\n"
    "    def step34(x35):\n"
    "        v36 = x4(x35)\n"
    "        return v36\n"
    "    v37 = _iter(p3, step34, c33)\n"
    "    v38 = v32 + v37\n"
    "    return v38\n"
    "\n"
    "\n"
    "function = f\n";

int main(void) {
  printf("export to ADOL-C: the program's C++ for pairs, sums, arrays, ints, a local function\n");
  chad_diag d = {0};
  chad_prog *p = chad_load_string(src, strlen(src), "ad.chad", &d);
  CHECK(p != NULL);
  char *out = NULL;
  CHECK(p && chad_export(p, "f", "adolc", &out, &d) == 0 && out);
  const char *got = out ? strstr(out, "// ---- program ----") : NULL;
  CHECK(got && strncmp(got, want, strlen(want)) == 0);
  if (got && strncmp(got, want, strlen(want)) != 0) fprintf(stderr, "got:\n%.*s\n", (int)strlen(want), got);
  free(out);
  out = NULL;
  printf("export to PyTorch: the same program's Python\n");
  CHECK(p && chad_export(p, "f", "torch", &out, &d) == 0 && out);
  got = out ? strstr(out, "def f(p0, p1, p2, p3):") : NULL;
  CHECK(got && strcmp(got, want_torch) == 0);
  if (got && strcmp(got, want_torch) != 0) fprintf(stderr, "got:\n%s\n", got);
  free(out);
  chad_free(p);
  /* `length`, which the pinned program does not use, in both targets */
  printf("export of length: len in Python, size() in C++\n");
  {
    static const char *lsrc = "def g (v : [real]) : real = toreal (length v)\n";
    chad_prog *q = chad_load_string(lsrc, strlen(lsrc), "len.chad", &d);
    CHECK(q != NULL);
    out = NULL;
    CHECK(q && chad_export(q, "g", "torch", &out, &d) == 0 && out &&
          strstr(out, "def g(p0):\n    v0 = len(p0)\n    v1 = _real(float(v0))\n    return v1\n"));
    free(out);
    out = NULL;
    CHECK(q && chad_export(q, "g", "adolc", &out, &d) == 0 && out &&
          strstr(out, "(std::vector<adouble> p0) {\n  chad::I v0 = (chad::I)p0.size();\n"
                      "  adouble v1 = chad::toreal(v0);\n  return v1;\n}\n"));
    free(out);
    chad_free(q);
  }
  /* a parameter type whose C++ name is over the 1024 characters of its
   * buffer (a pair nested 60 deep: 1227) is refused, not cut short */
  printf("export to ADOL-C: a type too large for the C++ export\n");
  {
    char deep[2048] = "def f (p : real";
    for (int k = 0; k < 60; k++) {
      memmove(deep + 12, deep + 11, strlen(deep + 11) + 1);
      deep[11] = '(';
      strcat(deep, " * real)");
    }
    strcat(deep, ") : real = 1.0\n");
    chad_diag dd = {0};
    chad_prog *q = chad_load_string(deep, strlen(deep), "deep.chad", &dd);
    CHECK(q != NULL);
    out = NULL;
    CHECK(q && chad_export(q, "f", "adolc", &out, &dd) == CHAD_EXIT_INPUT && out == NULL &&
          strstr(dd.msg, "a type too large for the C++ export"));
    if (q && !strstr(dd.msg, "too large")) fprintf(stderr, "  got: %s\n%.200s\n", dd.msg, out ? out : "");
    free(out);
    chad_free(q);
  }
  /* an export frees what it allocates (the emitter's names and buffers; what
   * it keeps with the program, chad_free frees): once the library's own
   * tables have grown to this program (16 rounds), a round of load, export
   * and free leaves the bytes in use as they were (glibc's count of its own
   * allocations; under ASan, whose allocator glibc does not count, the check
   * holds trivially and LeakSanitizer checks the same at exit) */
  printf("export: nothing left allocated\n");
  size_t before = 0;
  for (int round = 0; round < 24; round++) {
    if (round == 16) before = mallinfo2().uordblks;
    p = chad_load_string(src, strlen(src), "ad.chad", &d);
    for (int k = 0; k < 2; k++) {
      out = NULL;
      CHECK(p && chad_export(p, "f", k ? "torch" : "adolc", &out, &d) == 0 && out);
      free(out);
    }
    chad_free(p);
  }
  size_t after = mallinfo2().uordblks;
  CHECK(after == before);
  if (after != before) fprintf(stderr, "  %zu bytes in use before 8 rounds, %zu after\n", before, after);
  printf("test_export: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
