/* The `chad` command line: a thin shell over libchad (include/chad.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chad.h"

static const char usage_text[] =
    "usage: chad COMMAND FILE [OPTIONS]\n"
    "\n"
    "Commands (FILE is a CHAD-C program, a list of definitions):\n"
    "  check FILE                 type check; print each definition's type\n"
    "  check FILE [--fn NAME] --args JSON --candidate JSON [--ulps N | --rtol X]\n"
    "        [--precision f64|f32] [--tangent JSON] [--cotangent JSON] [--json]\n"
    "                             grade a candidate (another tool's value, gradient,\n"
    "                             jacobian, tangent, cotangent, jvp, vjp) entry by entry\n"
    "                             against the certified evaluator (--eval ball)\n"
    "  print FILE [--fn NAME]     print the elaborated program (or one definition)\n"
    "  eval FILE [--fn NAME] --args JSON\n"
    "                             evaluate NAME at the arguments; print the result as JSON\n"
    "  fwd FILE [--fn NAME] [--raw]   print NAME's forward-mode CHAD transformation\n"
    "  rev FILE [--fn NAME] [--raw]   print NAME's reverse-mode CHAD transformation\n"
    "  jvp FILE [--fn NAME] --args JSON --tangent JSON\n"
    "                             forward mode: {\"value\": V, \"tangent\": DT}\n"
    "  vjp FILE [--fn NAME] --args JSON --cotangent JSON\n"
    "                             reverse mode: {\"value\": V, \"cotangent\": G}\n"
    "  grad FILE [--fn NAME] --args JSON\n"
    "                             gradient of a real-valued NAME: {\"value\": V, \"gradient\": G}\n"
    "  jacobian FILE [--fn NAME] --args JSON [--mode fwd|rev]\n"
    "                             {\"value\": V, \"jacobian\": M} (rows: outputs, columns: inputs)\n"
    "  vectors OUTDIR [--spec FILE]  write the certified test-vector suite defined by FILE\n"
    "                             (default vectors/spec.json) into OUTDIR\n"
    "  export FILE [--fn NAME] --to torch|adolc\n"
    "                             print NAME as a Python module over PyTorch, or a C++\n"
    "                             program over ADOL-C\n"
    "  (eval, jvp, vjp, grad and jacobian also take --eval fast|ref|ball,\n"
    "   and with --eval ball: --certificate, --max-prec BITS)\n"
    "  (every command also takes --inline and --no-inline)\n"
    "\n"
    "Options:\n"
    "  --fn NAME        the definition to use (default: the last one in FILE)\n"
    "  --args JSON      the parameters: a JSON array in order, or an object keyed by\n"
    "                   parameter name; @PATH reads the JSON from the file PATH,\n"
    "                   @- from standard input\n"
    "  --tangent JSON   jvp: one tangent per parameter, like --args (@PATH too)\n"
    "  --cotangent JSON vjp: a cotangent of the result (@PATH too)\n"
    "  --mode fwd|rev   jacobian: by columns (jvp, default) or by rows (vjp)\n"
    "  --eval fast|ref  the evaluator: fast (default; unboxed arrays, compiled loops,\n"
    "                   OMP_NUM_THREADS threads) or ref (the reference evaluator);\n"
    "                   the same results up to the order in which sums are added;\n"
    "                   ball: the certified evaluator: each real correctly rounded\n"
    "                   from an Arb ball enclosure of the exact result, reruns at\n"
    "                   64, 128, ... bits up to --max-prec (default 4096); entries\n"
    "                   it cannot decide print \"undecided\", undefined ones\n"
    "                   \"undefined\"; at a point where the derivative does not\n"
    "                   exist it exits 4 with each branch's one-sided result\n"
    "  --certificate    with --eval ball: add \"certificate\": every real's enclosure\n"
    "                   (exact decimal midpoint and radius) and the precision used\n"
    "  --max-prec BITS  with --eval ball or check --candidate: the precision cap\n"
    "                   (default 4096)\n"
    "  --candidate JSON check: {\"value\": V, \"gradient\": G, \"jacobian\": M,\n"
    "                   \"tangent\": DT, \"cotangent\": G, \"jvp\": {\"direction\": T,\n"
    "                   \"tangent\": DT}, \"vjp\": {\"direction\": C, \"cotangent\": G}}, any\n"
    "                   of them (chad's own outputs are candidates); NaN, Infinity,\n"
    "                   -Infinity and the strings \"nan\", \"inf\", \"-inf\" accepted\n"
    "  --ulps N         check: an entry within N ulps of the correctly rounded\n"
    "                   reference is correct (default 2)\n"
    "  --rtol X         check: instead, within X times the reference's magnitude\n"
    "  --precision f64|f32  check: grade against the exact value rounded to double\n"
    "                   (default) or to float32, in ulps of that format\n"
    "  --json           check: the verdict as JSON instead of a table\n"
    "  --raw            fwd/rev: print the transformation's output unsimplified\n"
    "  --inline         every command: inline each full application f a1 ... an of a\n"
    "                   definition f (arguments let-bound first, recursively); same\n"
    "                   results, but no function-typed lets, so no copowers in the\n"
    "                   reverse derivative; past 262144 raw nodes, exit 2.\n"
    "                   Default: check, eval, jvp, vjp, grad and jacobian inline,\n"
    "                   or use the program as written where inlining would pass\n"
    "                   that limit; print, fwd, rev and export show it as written\n"
    "  --no-inline      every command: the program as written\n"
    "  --heap-mb N      runtime heap limit in MiB, 1 to 524288 (default 1024)\n"
    "  --max-depth N    evaluation's nesting limit in levels, 1 to 4000000\n"
    "                   (default 1000000; a deep evaluation runs on a stack of\n"
    "                   about 5 KiB a level, taken only as it is used)\n"
    "  -h, --help       this text\n"
    "  --version        the version of chad\n"
    "\n"
    "JSON values follow the parameter types: real a number, int an integer,\n"
    "unit null, a * b [a, b], a + b {\"inl\": a} or {\"inr\": b}, bool (= unit + unit)\n"
    "true/false, [a] an array. Tangents and cotangents: real a number, int and\n"
    "unit null, pairs and sums (the tangent of a + b is [da, db]) 2-element arrays,\n"
    "arrays as long as the primal; null is also the zero of any tangent.\n"
    "Output reals have 17 significant digits; a non-finite result (nan, inf) is\n"
    "a runtime error, since JSON cannot represent it.\n"
    "\n"
    "Limits: a JSON input 64 MiB, a program 4 MiB (its syntax tree 256 MiB);\n"
    "the heap limit bounds evaluation and the JSON inputs' memory.\n"
    "\n"
    "Exit codes: 0 success; 1 usage error (bad command line, unknown --fn);\n"
    "2 input error (cannot open or read FILE or @PATH, an input over its limit,\n"
    "parse, type or JSON error, wrong JSON shape); 3 runtime error (index out of\n"
    "bounds, integer division by zero or overflow, heap limit, non-finite result,\n"
    "output not written); with --eval ball: 4 not differentiable (or undefined)\n"
    "at the point, 5 undecided at the precision cap or whether differentiable at\n"
    "a tie nearby points may not leave, each with its answer on stdout.\n"
    "check --candidate: 0 every entry correct or acceptable, 6 some entry\n"
    "wrong, else 4 some entry outside the domain, else 5 some entry undecided.\n"
    "Errors are one line on stderr: file:line:col: error: ...,\n"
    "or <command line>: error: OPTION: ... when no file has the place.\n";

enum cmd { C_CHECK, C_PRINT, C_EVAL, C_FWD, C_REV, C_JVP, C_VJP, C_GRAD, C_JACOBIAN, C_EXPORT,
           C_VECTORS, C_NONE };
static const char *const cmd_names[] = {"check", "print", "eval", "fwd", "rev",
                                        "jvp", "vjp", "grad", "jacobian", "export", "vectors"};

/* Which options each command takes (bit per option). */
enum { O_FN = 1, O_ARGS = 2, O_TANGENT = 4, O_COTANGENT = 8, O_MODE = 16, O_RAW = 32, O_EVAL = 64,
       O_INLINE = 128, O_CERT = 256, O_MAXPREC = 512, O_TO = 1024, O_SPEC = 2048, O_CAND = 4096,
       O_ULPS = 8192, O_RTOL = 16384, O_PREC = 32768, O_JSON = 65536 };
/* check's options that only grading a candidate takes */
enum { O_GRADING = O_FN | O_ARGS | O_TANGENT | O_COTANGENT | O_MAXPREC | O_ULPS | O_RTOL | O_PREC | O_JSON };
static const int cmd_opts[] = {
    [C_CHECK] = O_INLINE | O_CAND | O_GRADING,
    [C_PRINT] = O_FN | O_INLINE,
    [C_EVAL] = O_FN | O_ARGS | O_EVAL | O_INLINE | O_CERT | O_MAXPREC,
    [C_FWD] = O_FN | O_RAW | O_INLINE,
    [C_REV] = O_FN | O_RAW | O_INLINE,
    [C_JVP] = O_FN | O_ARGS | O_TANGENT | O_EVAL | O_INLINE | O_CERT | O_MAXPREC,
    [C_VJP] = O_FN | O_ARGS | O_COTANGENT | O_EVAL | O_INLINE | O_CERT | O_MAXPREC,
    [C_GRAD] = O_FN | O_ARGS | O_EVAL | O_INLINE | O_CERT | O_MAXPREC,
    [C_JACOBIAN] = O_FN | O_ARGS | O_MODE | O_EVAL | O_INLINE | O_CERT | O_MAXPREC,
    [C_EXPORT] = O_FN | O_TO | O_INLINE,
    [C_VECTORS] = O_SPEC,
};

/* Errors about the command line itself have no file:line:col; they are
 * placed "<command line>: error: ..." and name the option or argument. */
#define CMDLINE "<command line>"

static int usage_error(const char *fmt, const char *a) {
  fprintf(stderr, CMDLINE ": error: ");
  fprintf(stderr, fmt, a);
  fprintf(stderr, " (see chad --help)\n");
  return CHAD_EXIT_USAGE;
}

/* A JSON option's value: inline text named `inline_name`, or @PATH read. */
typedef struct json_opt {
  const char *arg;   /* as given; NULL if absent */
  char *owned;       /* file contents            */
  chad_json j;
} json_opt;

/* Prints d; one without a position in a file is placed on the command
 * line, after `what` (the option or argument it is about). */
static void print_diag(const chad_diag *d, const char *what) {
  if (d->file[0] && d->line > 0) diag_print(d);
  else if (what) fprintf(stderr, CMDLINE ": error: %s: %s\n", what, d->msg);
  else fprintf(stderr, CMDLINE ": error: %s\n", d->msg);
}

static int json_opt_load(json_opt *o, const char *option, const char *inline_name) {
  o->j.text = NULL;
  if (!o->arg) return 0;
  if (o->arg[0] == '@') {
    chad_diag d;
    size_t len;
    o->owned = chad_read_file(o->arg + 1, &len, &d);
    if (!o->owned) {
      char what[300];
      snprintf(what, sizeof what, "%s %s", option, o->arg);
      print_diag(&d, what);
      return d.exit_code;
    }
    o->j.text = o->owned;
    o->j.len = len;
    o->j.name = strcmp(o->arg, "@-") == 0 ? "<stdin>" : o->arg + 1;
  } else {
    o->j = chad_json_text(o->arg, inline_name);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(CMDLINE ": error: usage: chad COMMAND FILE [OPTIONS] (see chad --help)\n", stderr);
    return CHAD_EXIT_USAGE;
  }
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0 ||
        (i == 1 && strcmp(argv[i], "help") == 0)) {
      fputs(usage_text, stdout);
      return CHAD_EXIT_OK;
    } else if (strcmp(argv[i], "--version") == 0) {
      printf("chad %s (CHAD-C)\n", CHAD_VERSION);
      return CHAD_EXIT_OK;
    }
  enum cmd cmd = C_NONE;
  for (int c = 0; c < C_NONE; c++)
    if (strcmp(argv[1], cmd_names[c]) == 0) cmd = (enum cmd)c;
  if (cmd == C_NONE) return usage_error("unknown command '%s'", argv[1]);

  const char *file = NULL, *fn = NULL, *mode = NULL, *evaluator = NULL, *target = NULL;
  const char *spec = "vectors/spec.json";
  int raw = 0, inline_mode = CHAD_INLINE_DEFAULT, certificate = 0, given = 0, as_json = 0, f32 = 0;
  long ulps = CHAD_CHECK_DEFAULT_ULPS;
  double rtol = 0;
  json_opt candidate = {0};
  json_opt args = {0}, tangent = {0}, cotangent = {0};
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (strncmp(a, "--", 2) != 0 || strcmp(a, "--") == 0) {
      if (strcmp(a, "--") == 0) {
        if (i + 1 < argc) a = argv[++i];
        else return usage_error("%s: missing FILE", cmd_names[cmd]);
      }
      if (file) return usage_error("unexpected argument '%s'", a);
      file = a;
      continue;
    }
    /* --name VALUE or --name=VALUE */
    char name[32];
    const char *eq = strchr(a, '='), *val = NULL;
    size_t nlen = eq ? (size_t)(eq - a) : strlen(a);
    if (nlen >= sizeof name) return usage_error("unknown option '%s'", a);
    memcpy(name, a, nlen);
    name[nlen] = '\0';
    int bit;
    if (strcmp(name, "--fn") == 0) bit = O_FN;
    else if (strcmp(name, "--args") == 0) bit = O_ARGS;
    else if (strcmp(name, "--tangent") == 0) bit = O_TANGENT;
    else if (strcmp(name, "--cotangent") == 0) bit = O_COTANGENT;
    else if (strcmp(name, "--mode") == 0) bit = O_MODE;
    else if (strcmp(name, "--raw") == 0) bit = O_RAW;
    else if (strcmp(name, "--eval") == 0) bit = O_EVAL;
    else if (strcmp(name, "--inline") == 0 || strcmp(name, "--no-inline") == 0) bit = O_INLINE;
    else if (strcmp(name, "--heap-mb") == 0 || strcmp(name, "--max-depth") == 0) bit = 0; /* every command */
    else if (strcmp(name, "--certificate") == 0) bit = O_CERT;
    else if (strcmp(name, "--max-prec") == 0) bit = O_MAXPREC;
    else if (strcmp(name, "--to") == 0) bit = O_TO;
    else if (strcmp(name, "--spec") == 0) bit = O_SPEC;
    else if (strcmp(name, "--candidate") == 0) bit = O_CAND;
    else if (strcmp(name, "--ulps") == 0) bit = O_ULPS;
    else if (strcmp(name, "--rtol") == 0) bit = O_RTOL;
    else if (strcmp(name, "--precision") == 0) bit = O_PREC;
    else if (strcmp(name, "--json") == 0) bit = O_JSON;
    else return usage_error("unknown option '%s'", a);
    if (bit && !(cmd_opts[cmd] & bit)) {
      fprintf(stderr, CMDLINE ": error: %s does not take the option %s (see chad --help)\n",
              cmd_names[cmd], name);
      return CHAD_EXIT_USAGE;
    }
    given |= bit;
    if (bit == O_RAW || bit == O_INLINE || bit == O_CERT || bit == O_JSON) {
      if (eq) return usage_error("%s takes no value", name);
      if (bit == O_RAW) raw = 1;
      else if (bit == O_CERT) certificate = 1;
      else if (bit == O_JSON) as_json = 1;
      else {
        int mode = name[2] == 'n' ? CHAD_INLINE_NEVER : CHAD_INLINE_ALWAYS;
        if (inline_mode != CHAD_INLINE_DEFAULT && inline_mode != mode)
          return usage_error("%s", "give --inline or --no-inline, not both");
        inline_mode = mode;
      }
      continue;
    }
    if (eq) val = eq + 1;
    else if (i + 1 < argc) val = argv[++i];
    else return usage_error("option %s needs a value", name);
    switch (bit) {
    case O_FN: fn = val; break;
    case O_ARGS: args.arg = val; break;
    case O_TANGENT: tangent.arg = val; break;
    case O_COTANGENT: cotangent.arg = val; break;
    case O_MODE: mode = val; break;
    case O_EVAL: evaluator = val; break;
    case O_TO: target = val; break;
    case O_SPEC: spec = val; break;
    case O_CAND: candidate.arg = val; break;
    case O_PREC:
      if (strcmp(val, "f32") == 0) f32 = 1;
      else if (strcmp(val, "f64") == 0) f32 = 0;
      else return usage_error("--precision must be f64 or f32, not '%s'", val);
      break;
    case O_ULPS: {
      char *end;
      errno = 0;
      long n = strtol(val, &end, 10);
      if (errno || *end || end == val || n < 0 || n > 1000000000L)
        return usage_error("--ulps needs a number of ulps from 0 to 1e9, not '%s'", val);
      ulps = n;
      break;
    }
    case O_RTOL: {
      char *end;
      errno = 0;
      double x = strtod(val, &end);
      if (errno || *end || end == val || !(x > 0) || !(x < 1))
        return usage_error("--rtol needs a number between 0 and 1, not '%s'", val);
      rtol = x;
      break;
    }
    case O_MAXPREC: {
      char *end;
      errno = 0;
      long bits = strtol(val, &end, 10);
      if (errno || *end || end == val || bits < 64 || bits > CHAD_MAX_PREC_CAP)
        return usage_error("--max-prec needs a number of bits from 64 to 1048576, not '%s'", val);
      chad_set_max_prec(bits);
      break;
    }
    default: {
      char *end;
      errno = 0;
      if (strcmp(name, "--max-depth") == 0) {
        long d = strtol(val, &end, 10);
        if (errno || *end || end == val || d < 1 || d > CHAD_MAX_DEPTH_CAP)
          return usage_error("--max-depth needs a number of levels from 1 to 4000000, not '%s'", val);
        _Static_assert(CHAD_MAX_DEPTH_CAP == 4000000, "--max-depth's message states the cap");
        chad_set_max_depth((int)d);
        break;
      }
      unsigned long long mb = strtoull(val, &end, 10);
      if (errno || *end || end == val || mb == 0 || mb > (CHAD_MAX_HEAP_LIMIT >> 20) || val[0] == '-')
        return usage_error("--heap-mb needs a number of MiB from 1 to 524288, not '%s'", val);
      chad_set_heap_limit((size_t)mb << 20);
    }
    }
  }
  if (!file) return usage_error("%s: missing FILE", cmd_names[cmd]);
  if (cmd == C_CHECK && !candidate.arg && (given & O_GRADING))
    return usage_error("%s: grading options need --candidate (check FILE alone type checks)",
                       cmd_names[cmd]);
  if ((given & O_ULPS) && (given & O_RTOL))
    return usage_error("%s", "give --ulps or --rtol, not both");
  int reverse = 0;
  if (mode) {
    if (strcmp(mode, "rev") == 0) reverse = 1;
    else if (strcmp(mode, "fwd") != 0) return usage_error("--mode must be fwd or rev, not '%s'", mode);
  }
  if (evaluator) {
    if (strcmp(evaluator, "ref") == 0) chad_set_evaluator(CHAD_EVAL_REF);
    else if (strcmp(evaluator, "fast") == 0) chad_set_evaluator(CHAD_EVAL_FAST);
    else if (strcmp(evaluator, "ball") == 0) chad_set_evaluator(CHAD_EVAL_BALL);
    else return usage_error("--eval must be fast, ref or ball, not '%s'", evaluator);
  }
  if (certificate) {
    if (!evaluator || strcmp(evaluator, "ball") != 0)
      return usage_error("%s needs --eval ball", "--certificate");
    chad_set_certificate(1);
  }
  if (cmd == C_JVP && !tangent.arg) return usage_error("%s needs --tangent", "jvp");
  if (cmd == C_EXPORT && !target) return usage_error("%s needs --to torch or --to adolc", "export");
  if (cmd == C_VJP && !cotangent.arg) return usage_error("%s needs --cotangent", "vjp");

  int rc;
  if ((rc = json_opt_load(&args, "--args", "<args>")) ||
      (rc = json_opt_load(&tangent, "--tangent", "<tangent>")) ||
      (rc = json_opt_load(&cotangent, "--cotangent", "<cotangent>")) ||
      (rc = json_opt_load(&candidate, "--candidate", "<candidate>"))) {
    free(args.owned);
    free(tangent.owned);
    free(cotangent.owned);
    free(candidate.owned);
    return rc;
  }

  chad_diag d;
  char *out = NULL;
  if (cmd == C_VECTORS) {   /* FILE is the output folder */
    rc = chad_vectors(spec, file, isatty(2), &d);
    if (rc) {   /* unplaced: about the --spec file, or the output folder or a file in it */
      char what[600];
      if (strcmp(d.file, spec) == 0) snprintf(what, sizeof what, "--spec %s", spec);
      else snprintf(what, sizeof what, "OUTDIR '%s'", d.file[0] ? d.file : file);
      print_diag(&d, what);
    }
    return rc;
  }
  chad_prog *p = chad_load_file(file, &d);
  char file_what[300];
  snprintf(file_what, sizeof file_what, "FILE '%s'", file);
  if (!p) rc = d.exit_code;
  else {
    chad_set_inline(p, inline_mode);
    switch (cmd) {
    case C_CHECK:
      if (candidate.arg) {
        chad_check_opts o = {fn, &args.j, &candidate.j, &tangent.j, &cotangent.j, ulps, rtol, f32,
                             as_json};
        rc = chad_check_candidate(p, &o, &out, &d);
      } else rc = chad_check(p, &out, &d);
      break;
    case C_PRINT: rc = chad_print(p, fn, &out, &d); break;
    case C_EVAL: rc = chad_eval(p, fn, &args.j, &out, &d); break;
    case C_FWD: rc = chad_print_fwd(p, fn, raw, &out, &d); break;
    case C_REV: rc = chad_print_rev(p, fn, raw, &out, &d); break;
    case C_JVP: rc = chad_jvp(p, fn, &args.j, &tangent.j, &out, &d); break;
    case C_VJP: rc = chad_vjp(p, fn, &args.j, &cotangent.j, &out, &d); break;
    case C_GRAD: rc = chad_grad(p, fn, &args.j, &out, &d); break;
    case C_EXPORT: rc = chad_export(p, fn, target, &out, &d); break;
    default: rc = chad_jacobian(p, fn, &args.j, reverse, &out, &d); break;
    }
  }
  if (rc == CHAD_EXIT_RUNTIME && strstr(d.msg, "heap limit")) {
    size_t n = strlen(d.msg);   /* say how to raise the limit */
    snprintf(d.msg + n, sizeof d.msg - n, "; raise it with --heap-mb");
  }
  /* check --candidate's report (exit 4, 5, 6) has its own summary */
  if (rc && !(cmd == C_CHECK && candidate.arg && out)) print_diag(&d, p ? NULL : file_what);
  /* a certified verdict (not differentiable, undecided) has an answer too */
  if (out && (rc == CHAD_EXIT_OK || rc == CHAD_EXIT_NONDIFF || rc == CHAD_EXIT_UNDECIDED ||
              rc == CHAD_EXIT_WRONG))
    fputs(out, stdout);
  if (fflush(stdout) != 0 && rc == 0) {
    fprintf(stderr, "<stdout>: error: cannot write the output: %s\n", strerror(errno));
    rc = CHAD_EXIT_RUNTIME;
  }
  free(out);
  chad_free(p);
  free(args.owned);
  free(tangent.owned);
  free(cotangent.owned);
  free(candidate.owned);
  return rc;
}
