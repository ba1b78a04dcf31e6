/* `chad vectors OUTDIR`: the certified test-vector suite (spec/vectors.md).
 *
 * Reads the suite's definition (vectors/spec.json: groups of vectors, each a
 * program, a point, a tangent and a cotangent, flags and a comment), runs the
 * certified evaluator with certificates on each (value, gradient when the
 * result is real, JVP, VJP), and writes one JSON file per group in the shape
 * of Wycheproof's test vectors: a header (schema, version, generator, count,
 * flag notes) and the vectors with their tcId, the float64 references with
 * their enclosures, the float32 references (the exact value rounded to
 * float32 from the same enclosures), and the result: "valid", or
 * "acceptable" at a point where the derivative does not exist, with the
 * one-sided results whose convex hull is acceptable. The output depends on
 * nothing but the definition: regenerating it is byte for byte the same. */
#include <arb.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api_internal.h"
#include "chad.h"

#define VECTORS_SCHEMA "derivative_vectors_schema_v1.json"

/* The float32 nearest to the exact number enclosed by [mid +- rad] (exact
 * decimal strings, as certificates give them): 0 and *out, or -1 when the
 * ball does not decide it. Float32's subnormals (below 2^-126, 149 bits
 * after the point) and overflow (to infinity past 2^128 - 2^103) honoured. */
static int round_f32(const char *mid, const char *rad, double *out) {
  arb_t x;
  arf_t lo, hi, r;
  arb_init(x);
  arf_init(lo);
  arf_init(hi);
  arf_init(r);
  int rc = -1;
  slong prec = (slong)(strlen(mid) * 4 + 64);
  if (arb_set_str(x, mid, prec) != 0) goto out;
  arb_t rr;
  arb_init(rr);
  if (arb_set_str(rr, rad, prec) != 0) { arb_clear(rr); goto out; }
  arb_add_error(x, rr);
  arb_clear(rr);
  arb_get_lbound_arf(lo, x, prec);
  arb_get_ubound_arf(hi, x, prec);
  double d[2];
  arf_srcptr ends[2] = {lo, hi};
  for (int k = 0; k < 2; k++) {
    if (arf_is_zero(ends[k])) { d[k] = 0.0; continue; }
    /* bits available at this magnitude: 24, fewer in the subnormal range */
    slong e = fmpz_get_si(ARF_EXPREF(ends[k]));   /* |x| in [2^(e-1), 2^e) */
    slong bits = e - 1 >= -126 ? 24 : 24 - (-126 - (e - 1));
    if (bits <= 0) {
      /* below half the smallest subnormal 2^-149 rounds to 0; between, to it */
      arf_t half;
      arf_init(half);
      arf_set_si_2exp_si(half, 1, -150);
      arf_t a;
      arf_init(a);
      arf_abs(a, ends[k]);
      int c = arf_cmp(a, half);
      d[k] = c > 0 ? 0x1p-149 : 0.0;   /* a tie at 2^-150 rounds to even, 0 */
      if (arf_sgn(ends[k]) < 0) d[k] = -d[k];
      arf_clear(half);
      arf_clear(a);
      continue;
    }
    arf_set_round(r, ends[k], bits, ARF_RND_NEAR);
    double v = arf_get_d(r, ARF_RND_NEAR);   /* exact: at most 24 bits */
    if (v > 3.4028234663852886e38) v = INFINITY;
    if (v < -3.4028234663852886e38) v = -INFINITY;
    d[k] = v;
  }
  if (d[0] == d[1]) {
    *out = d[0];
    rc = 0;
  }
out:
  arb_clear(x);
  arf_clear(lo);
  arf_clear(hi);
  arf_clear(r);
  return rc;
}

/* Runs one certified command; its JSON (object) or NULL with *rc set. */
static json_t *certified(chad_prog *p, int cmd, const char *args, const char *dir, int *rc,
                         chad_diag *d) {
  chad_json a = chad_json_text(args, "<args>"), x = chad_json_text(dir, "<direction>");
  char *out = NULL;
  switch (cmd) {
  case 0: *rc = chad_eval(p, NULL, &a, &out, d); break;
  case 1: *rc = chad_jvp(p, NULL, &a, &x, &out, d); break;
  default: *rc = chad_vjp(p, NULL, &a, &x, &out, d); break;
  }
  json_t *j = NULL;
  if (out && (*rc == 0 || *rc == CHAD_EXIT_NONDIFF || *rc == CHAD_EXIT_UNDECIDED)) {
    json_error_t je;
    j = json_loads(out, JSON_DECODE_ANY, &je);
  }
  free(out);
  return j;
}

/* f32 references from a result's certificate: one per enclosure, null
 * where the ball does not decide the float32 (or there is no number). */
static json_t *f32_refs(json_t *cert) {
  json_t *out = json_array();
  json_t *encl = json_object_get(json_object_get(cert, "certificate"), "enclosures");
  size_t i;
  json_t *e;
  json_array_foreach(encl, i, e) {
    const char *mid = json_string_value(json_object_get(e, "mid"));
    const char *rad = json_string_value(json_object_get(e, "rad"));
    double v;
    if (!mid || !rad || strchr(mid, 'i') || round_f32(mid, rad, &v) < 0) {
      json_array_append_new(out, json_null());
    } else if (v != v || v == INFINITY || v == -INFINITY) {
      json_array_append_new(out, json_string(v > 0 ? "+infinity" : "-infinity"));
    } else {
      json_array_append_new(out, json_real(v));
    }
  }
  return out;
}

/* The number of reals a JSON value holds (numbers, and the words a
 * certified result writes in their place). */
static size_t count_reals(json_t *v) {
  size_t n = 0, i;
  const char *k;
  json_t *e;
  if (json_is_array(v)) json_array_foreach(v, i, e) n += count_reals(e);
  else if (json_is_object(v)) json_object_foreach(v, k, e) n += count_reals(e);
  else if (json_is_number(v) || json_is_string(v)) n = 1;
  return n;
}

/* arr without its first n entries (a new reference). */
static json_t *drop(json_t *arr, size_t n) {
  json_t *out = json_array();
  for (size_t i = n; i < json_array_size(arr); i++) json_array_append(out, json_array_get(arr, i));
  return out;
}

/* Moves a certified command's output into the vector under `key`: its
 * derivative part (res_key), or the value (res_key NULL), with the
 * enclosures and float32 references of those reals only. */
static void put_result(json_t *vec, const char *key, json_t *res, json_t *direction,
                       const char *dir_key, const char *res_key, int *acceptable) {
  json_t *o = json_object();
  if (direction) json_object_set(o, dir_key, direction);
  if (json_is_object(res) && json_object_get(res, "not_differentiable")) {
    *acceptable = 1;
    json_object_set(o, "not_differentiable", json_true());
    json_object_set(o, "branch_points", json_object_get(res, "branch_points"));
    json_t *lims = json_array();
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(res, "limits"), i, l) {
      json_t *r = json_object_get(l, "result");
      json_t *one = json_object();
      json_object_set(one, "branches", json_object_get(l, "branches"));
      size_t skip = res_key ? count_reals(json_object_get(r, "value")) : 0;
      json_object_set(one, "f64", res_key ? json_object_get(r, res_key) : json_object_get(r, "value"));
      json_t *f32 = f32_refs(r);
      json_object_set_new(one, "f32", drop(f32, skip));
      json_decref(f32);
      json_array_append_new(lims, one);
    }
    json_object_set_new(o, "limits", lims);
  } else if (json_is_object(res) && json_object_get(res, "certificate")) {
    json_t *cert = json_object_get(res, "certificate");
    size_t skip = res_key ? count_reals(json_object_get(res, "value")) : 0;
    json_object_set(o, "f64", res_key ? json_object_get(res, res_key) : json_object_get(res, "value"));
    json_t *f32 = f32_refs(res);
    json_object_set_new(o, "f32", drop(f32, skip));
    json_decref(f32);
    json_object_set_new(o, "enclosures", drop(json_object_get(cert, "enclosures"), skip));
    json_object_set(o, "precision", json_object_get(cert, "precision"));
  } else {
    json_object_set_new(o, "error", json_string("no certified result"));
  }
  json_object_set_new(vec, key, o);
}

static int write_file(const char *path, json_t *j, chad_diag *d) {
  char *s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
  if (!s) return diag_set(d, CHAD_EXIT_RUNTIME, "", 0, 0, "out of memory writing %s", path);
  FILE *f = fopen(path, "w");
  if (!f) {
    free(s);
    return diag_set(d, CHAD_EXIT_INPUT, path, 0, 0, "cannot write: %s", strerror(errno));
  }
  int bad = fputs(s, f) < 0 || fputc('\n', f) < 0;
  bad |= fclose(f) != 0;
  free(s);
  if (bad) return diag_set(d, CHAD_EXIT_RUNTIME, path, 0, 0, "cannot write: %s", strerror(errno));
  return 0;
}

int chad_vectors(const char *spec_path, const char *outdir, int progress, chad_diag *d) {
  if (!d) return CHAD_EXIT_USAGE;   /* chad.h's preconditions */
  if (!spec_path || !outdir)
    return diag_set(d, CHAD_EXIT_USAGE, "", 0, 0, "libchad: chad_vectors: %s is NULL",
                    spec_path ? "outdir" : "spec_path");
  /* read like every JSON input: bounded, errors placed in the file */
  size_t len;
  char *text = diag_read_file(spec_path, 0, CHAD_MAX_JSON_BYTES, &len, d);
  if (!text) return d->exit_code;
  json_error_t je;
  json_t *spec = json_loadb(text, len, JSON_DECODE_ANY, &je);
  if (!spec) {
    int line = je.line > 0 ? je.line : 1, col = je.column > 0 ? je.column : 1;
    if (je.position > 0 && memchr(text, '\r', len))   /* jansson counts LF only */
      diag_locate(text, len, (size_t)je.position - 1, &line, &col);
    free(text);
    return diag_set(d, CHAD_EXIT_INPUT, spec_path, line, col, "invalid JSON: %s", je.text);
  }
  free(text);
  if (mkdir(outdir, 0777) != 0 && errno != EEXIST) {
    json_decref(spec);
    return diag_set(d, CHAD_EXIT_INPUT, outdir, 0, 0, "cannot create: %s", strerror(errno));
  }
  const char *version = json_string_value(json_object_get(spec, "version"));
  json_t *notes = json_object_get(spec, "notes");
  chad_set_evaluator(CHAD_EVAL_BALL);
  chad_set_certificate(1);
  int rc = 0, total = 0;
  size_t gi;
  json_t *g;
  json_t *index = json_array();
  json_array_foreach(json_object_get(spec, "groups"), gi, g) {
    const char *name = json_string_value(json_object_get(g, "name"));
    if (!name) { rc = diag_set(d, CHAD_EXIT_INPUT, spec_path, 0, 0, "group %zu has no name", gi); break; }
    json_t *vecs = json_array();
    size_t vi;
    json_t *v;
    json_array_foreach(json_object_get(g, "vectors"), vi, v) {
      const char *src = json_string_value(json_object_get(v, "source"));
      json_t *args = json_object_get(v, "args"), *tan = json_object_get(v, "tangent"),
             *cot = json_object_get(v, "cotangent");
      if (!src || !args || !tan || !cot) {
        rc = diag_set(d, CHAD_EXIT_INPUT, spec_path, 0, 0,
                      "group %s, vector %zu: source, args, tangent and cotangent are required",
                      name, vi + 1);
        break;
      }
      chad_diag pd;
      chad_prog *p = chad_load_string(src, strlen(src), name, &pd);
      if (!p) {
        rc = diag_set(d, pd.exit_code, spec_path, 0, 0, "group %s, vector %zu: %s", name, vi + 1,
                      pd.msg);
        break;
      }
      char *as = json_dumps(args, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(17));
      char *ts = json_dumps(tan, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(17));
      char *cs = json_dumps(cot, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(17));
      json_t *out = json_object();
      json_object_set_new(out, "tcId", json_integer(++total));
      json_object_set(out, "comment", json_object_get(v, "comment"));
      json_object_set(out, "flags", json_object_get(v, "flags"));
      json_object_set(out, "source", json_object_get(v, "source"));
      json_object_set(out, "args", args);
      int acceptable = 0, crc;
      chad_diag cd;
      json_t *val = certified(p, 0, as, NULL, &crc, &cd);
      put_result(out, "value", val, NULL, NULL, NULL, &acceptable);
      json_t *jv = certified(p, 1, as, ts, &crc, &cd);
      put_result(out, "jvp", jv, tan, "tangent", "tangent", &acceptable);
      json_t *vj = certified(p, 2, as, cs, &crc, &cd);
      put_result(out, "vjp", vj, cot, "cotangent", "cotangent", &acceptable);
      json_object_set_new(out, "result", json_string(acceptable ? "acceptable" : "valid"));
      json_decref(val);
      json_decref(jv);
      json_decref(vj);
      free(as);
      free(ts);
      free(cs);
      chad_free(p);
      json_array_append_new(vecs, out);
      if (progress && total % 25 == 0) fprintf(stderr, "vectors: %d written\n", total);
    }
    if (rc) { json_decref(vecs); break; }
    json_t *file = json_object();
    json_object_set_new(file, "schema", json_string(VECTORS_SCHEMA));
    json_object_set_new(file, "version", json_string(version ? version : "0"));
    json_object_set_new(file, "generator", json_string("chad vectors"));
    json_object_set_new(file, "group", json_string(name));
    json_object_set(file, "comment", json_object_get(g, "comment"));
    json_object_set_new(file, "numberOfVectors", json_integer((json_int_t)json_array_size(vecs)));
    json_object_set(file, "notes", notes);
    json_object_set_new(file, "vectors", vecs);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.json", outdir, name);
    rc = write_file(path, file, d);
    json_decref(file);
    if (rc) break;
    json_array_append_new(index, json_pack("{s:s, s:I}", "group", name, "numberOfVectors",
                                           (json_int_t)vi));
  }
  if (!rc) {
    json_t *ix = json_pack("{s:s, s:s, s:O, s:i}", "schema", VECTORS_SCHEMA, "version",
                           version ? version : "0", "groups", index, "numberOfVectors", total);
    char path[4096];
    snprintf(path, sizeof path, "%s/index.json", outdir);
    rc = write_file(path, ix, d);
    json_decref(ix);
  }
  json_decref(index);
  json_decref(spec);
  chad_set_certificate(0);
  chad_set_evaluator(CHAD_EVAL_FAST);
  return rc;
}
