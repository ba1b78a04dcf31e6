/* chad_export to ADOL-C (src/export/adolc.c) on one program with every
 * kind of type: the C++ it emits for the program, whole (the types of
 * pairs, sums, arrays, ints and local functions, a case, a call, the
 * primitives), pinned as text so that any change of the emitted code is
 * seen. That such code compiles and computes chad's numbers is what the
 * ADOL-C campaign checks (difftest/, make test-difftest); this test is the
 * cheap check of the text, run where the campaign is not (mutation runs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chad.h"
#include "check.h"

static const char *src =
    "def f (p : real * real, s : real + unit, v : [real], n : int) : real =\n"
    "  let g = fun (x : real) -> x * 2.0 in\n"
    "  let (a, b) = p in a * b + g (case s of inl w -> w | inr u -> 0.0) + sum v + toreal n\n";

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
    "  return v20;\n"
    "}\n"
    "static void run(std::istream &in, std::ostream &out) { chad::drive(function, in, out); }\n"
    "}  // namespace chad_program\n";

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
  chad_free(p);
  printf("test_export: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
