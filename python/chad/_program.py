"""Programs and their functions (include/chad.h through ctypes)."""
import collections
import decimal
import json

from . import _lib
from . import _types as T
from ._errors import InputError, UsageError, from_diag

MAX_DEPTH_CAP = 4000000    # CHAD_MAX_DEPTH_CAP (include/chad.h)
EVALUATORS = {"fast": _lib.EVAL_FAST, "ref": _lib.EVAL_REF, "ball": _lib.EVAL_BALL}

Limit = collections.namedtuple("Limit", ["branches", "result", "realized"], defaults=(None,))
Limit.__doc__ = """One combination of sides at the branch points: `branches`
(dicts with "at", "op", "what", "value", "side"), the command's Result on
it, and `realized`: True when nearby points are proved to take these sides
(a one-sided limit), False when not proved (spec/certified.md §3)."""

Enclosure = collections.namedtuple("Enclosure", ["mid", "rad"])
Enclosure.__doc__ = """A real's ball: exact decimal.Decimal midpoint and
radius (the exact value lies in [mid - rad, mid + rad]); None for an
undefined real."""


class Certificate:
    """chad_set_certificate: `precision` (bits of the run that decided) and
    `enclosures`, one per real written, in output order (the value's reals
    first): Enclosure(mid, rad) or None."""

    def __init__(self, j):
        self.precision = j.get("precision")
        self.enclosures = [None if e is None or e.get("mid") is None else
                           Enclosure(decimal.Decimal(e["mid"]), decimal.Decimal(e["rad"]))
                           for e in j.get("enclosures", [])]

    def contains(self, k, c):
        """Whether the double c lies in the k-th enclosure (exactly)."""
        e = self.enclosures[k]
        return e is not None and abs(decimal.Decimal(c) - e.mid) <= e.rad

    def __repr__(self):
        return "Certificate(precision=%r, %d enclosures)" % (self.precision,
                                                            len(self.enclosures))


class Result:
    """A command's full answer. Attributes: `command`; `value` (the
    function's result); one of `gradient` (a tuple, one entry per
    parameter), `tangent`, `cotangent` (a tuple), `jacobian` (a 2-D
    ndarray); `certificate` (Certificate or None); `json` (the parsed output
    of libchad); `undefined` and `undecided`: masks shaped like the result
    (dict keyed "value" / "gradient" / ...; booleans, bool ndarrays) where
    the certified evaluator printed that word (the entry itself holds
    float('nan')); `exit_code`."""

    def __init__(self, command, j, conv, exit_code):
        self.command = command
        self.json = j
        self.exit_code = exit_code
        self.certificate = None
        if command == "eval" and not (isinstance(j, dict) and "certificate" in j
                                      and "value" in j and len(j) == 2):
            j = {"value": j}
        if isinstance(j, dict) and "certificate" in j:
            self.certificate = Certificate(j["certificate"])
        self.keys = [k for k in conv if k in j]
        self.undefined, self.undecided = {}, {}
        self.value = None
        for k in self.keys:
            setattr(self, k, conv[k](j[k], T._real))
            self.undefined[k] = T.as_bool(conv[k](j[k], T.mask_leaf("undefined")))
            self.undecided[k] = T.as_bool(conv[k](j[k], T.mask_leaf("undecided")))

    def __repr__(self):
        parts = ["%s=%r" % (k, getattr(self, k)) for k in self.keys]
        return "Result(%s)" % ", ".join([self.command] + parts)


class Function:
    """A definition of a Program. Arguments are positional (in parameter
    order) or keywords (by parameter name), in the JSON conventions: floats,
    ints, None, bools, tuples for pairs, {'inl': v} / {'inr': v} for sums,
    numpy arrays (or lists) for arrays; torch tensors are accepted and read
    as numpy arrays.

    Every command takes the keyword-only options evaluator ("fast", "ref",
    "ball"; default: the program's), certificate (bool, "ball" only) and
    full (return the Result instead of the plain answer)."""

    def __init__(self, prog, name, params, result):
        self.program = prog
        self.name = name
        self.params = params            # [(name, type)]
        self.result_type = result

    @property
    def signature(self):
        ps = ", ".join("%s : %s" % (n, T.show_type(t)) for n, t in self.params)
        return "%s (%s) : %s" % (self.name, ps, T.show_type(self.result_type))

    def __repr__(self):
        return "<chad function %s>" % self.signature

    # ---- plumbing --------------------------------------------------------
    def _args(self, args, kwargs, what="<args>"):
        if args and kwargs:
            raise UsageError("give the arguments of '%s' by position or by name, not both"
                             % self.name)
        if not args and not kwargs:
            return None                    # not given (the command line's missing --args)
        x = dict(kwargs) if kwargs else list(args)
        try:
            return _lib.json_arg(T.to_json(x), what)
        except ValueError as e:
            raise InputError("%s: %s (NaN and infinities have no JSON form)" % (what, e),
                             what) from None

    def _extra(self, x, what):
        try:
            return _lib.json_arg(T.to_json(x), what)
        except ValueError as e:
            raise InputError("%s: %s (NaN and infinities have no JSON form)" % (what, e),
                             what) from None

    def _conv(self, command):
        v = lambda j, leaf: T.value(self.result_type, j, leaf)
        ps = [t for _, t in self.params]

        def per_param(j, leaf):
            return tuple(T.tangent(t, x, leaf) for t, x in zip(ps, j))
        conv = {"value": v}
        if command == "grad":
            conv["gradient"] = per_param
        elif command == "vjp":
            conv["cotangent"] = per_param
        elif command == "jvp":
            conv["tangent"] = lambda j, leaf: T.tangent(self.result_type, j, leaf)
        elif command == "jacobian":
            conv["jacobian"] = T.matrix
        return conv

    def _run(self, command, cargs, evaluator, certificate):
        prog = self.program
        ev = evaluator or prog.evaluator
        if ev not in EVALUATORS:
            raise UsageError("evaluator must be fast, ref or ball, not %r" % (ev,))
        if not (isinstance(prog.max_prec, int) and 64 <= prog.max_prec <= 1048576):
            raise UsageError("max_prec must be a number of bits from 64 to 1048576, not %r"
                             % (prog.max_prec,))
        _check_max_depth(prog.max_depth)
        if certificate and ev != "ball":
            raise UsageError("certificate needs evaluator='ball'")
        with _lib.LOCK:
            _lib.lib.chad_set_evaluator(EVALUATORS[ev])
            _lib.lib.chad_set_certificate(1 if certificate else 0)
            _lib.lib.chad_set_max_prec(prog.max_prec)
            _lib.lib.chad_set_heap_limit(prog.heap_bytes)
            _lib.lib.chad_set_max_depth(prog.max_depth)
            _lib.lib.chad_set_inline(prog._handle(), _lib.inline_mode(prog.inline))
            try:
                rc, out, d = _lib.call("chad_" + command, prog._handle(),
                                       self.name.encode(), *cargs)
            finally:
                _lib.lib.chad_set_evaluator(_lib.EVAL_FAST)
                _lib.lib.chad_set_certificate(0)
        conv = self._conv(command)
        j = json.loads(out) if out else None
        if rc == 0:
            return Result(command, j, conv, 0)
        if (rc == 4 and isinstance(j, dict) and j.get("not_differentiable")) or \
                (rc == 5 and isinstance(j, dict) and j.get("differentiable") == "undecided"):
            limits = [Limit(l.get("branches", []), Result(command, l.get("result"), conv, 0),
                            l.get("realized"))
                      for l in j.get("limits", [])]
            raise from_diag(d, branch_points=j.get("branch_points", []), limits=limits,
                            complete=j.get("complete", True))
        if rc in (4, 5) and j is not None:
            raise from_diag(d, result=Result(command, j, conv, rc))
        raise from_diag(d)

    # ---- commands --------------------------------------------------------
    def __call__(self, *args, **kwargs):
        return self.eval(*args, **kwargs)

    def eval(self, *args, evaluator=None, certificate=False, full=False, **kwargs):
        """The function's value at the arguments."""
        res = self._run("eval", [self._args(args, kwargs)], evaluator, certificate)
        return res if full else res.value

    def grad(self, *args, evaluator=None, certificate=False, full=False, **kwargs):
        """The gradient of a real-valued function: a tuple with one entry per
        parameter, shaped like its cotangent (None for int and unit)."""
        res = self._run("grad", [self._args(args, kwargs)], evaluator, certificate)
        return res if full else res.gradient

    def value_and_grad(self, *args, evaluator=None, certificate=False, **kwargs):
        """(value, gradient) from one run."""
        res = self._run("grad", [self._args(args, kwargs)], evaluator, certificate)
        return res.value, res.gradient

    def jvp(self, args, tangents, *, evaluator=None, certificate=False, full=False):
        """Forward mode: (value, tangent of the result) at args (a sequence
        of the arguments, or a dict by name) in the direction tangents (one
        per parameter, None for int and unit)."""
        a = self._args(*((args, {}) if not isinstance(args, dict) else ((), args)))
        tan = tangents if isinstance(tangents, dict) else list(tangents)
        res = self._run("jvp", [a, self._extra(tan, "<tangent>")], evaluator,
                        certificate)
        return res if full else (res.value, res.tangent)

    def vjp(self, args, cotangent, *, evaluator=None, certificate=False, full=False):
        """Reverse mode: (value, cotangents), one cotangent per parameter,
        for the result's cotangent `cotangent`."""
        a = self._args(*((args, {}) if not isinstance(args, dict) else ((), args)))
        res = self._run("vjp", [a, self._extra(cotangent, "<cotangent>")], evaluator,
                        certificate)
        return res if full else (res.value, res.cotangent)

    def jacobian(self, *args, mode="fwd", evaluator=None, certificate=False, full=False,
                 **kwargs):
        """The Jacobian as a 2-D ndarray: rows the real coordinates of the
        result, columns those of the parameters, both flattened in JSON
        order. mode "fwd": one JVP per column; "rev": one VJP per row."""
        if mode not in ("fwd", "rev"):
            raise UsageError("mode must be fwd or rev, not %r" % (mode,))
        res = self._run("jacobian", [self._args(args, kwargs), 1 if mode == "rev" else 0],
                        evaluator, certificate)
        return res if full else res.jacobian

    def check(self, args, candidate, *, tangent=None, cotangent=None, ulps=None, rtol=None,
              precision="f64"):
        """chad check --candidate: grades another tool's value and
        derivatives of this definition at args (a sequence of the arguments
        or a dict by name) against the certified evaluator, entry by entry,
        with libchad's grader (spec/verdict.md). candidate: a dict with any
        of "value", "gradient", "jacobian", "tangent" (needs tangent=),
        "cotangent" (needs cotangent=), "jvp", "vjp" (numpy arrays, tuples
        and torch tensors allowed), a bare value, a chad Result, or JSON
        text. Tolerance: ulps (default 2) or rtol; precision "f64" or "f32".
        Returns a Verdict (its json is what `chad check --json` prints)."""
        from ._check import grade
        return grade(self, args, candidate, tangent=tangent, cotangent=cotangent, ulps=ulps,
                     rtol=rtol, precision=precision)

    def print(self):
        return self.program.print(self.name)

    def fwd(self, raw=False):
        return self.program.fwd(self.name, raw)

    def export(self, target="torch"):
        return self.program.export(self.name, target)

    def torch_module(self):
        """The definition as PyTorch (chad export --to torch, spec/export.md),
        imported: a module whose `function` takes the parameters as tensors."""
        import types
        mod = types.ModuleType("chad_export_%s" % self.name)
        mod.__file__ = "<chad export %s>" % self.name
        exec(compile(self.export("torch"), mod.__file__, "exec"), mod.__dict__)
        return mod

    def rev(self, raw=False):
        return self.program.rev(self.name, raw)


class Program:
    """A CHAD-C program (chad.load / chad.loads). Its definitions are
    attributes (prog.f) and items (prog["f"]); `names` lists them.

    Options (attributes, may be changed): evaluator ("fast", "ref" or
    "ball"; the default of every command), inline (None, the default:
    the evaluating commands inline calls of definitions, or use the program
    as written where inlining would pass its size limit, and printing shows
    it as written; True: chad --inline; False: chad --no-inline),
    max_prec (the certified evaluator's cap in bits, default 4096),
    heap_bytes (each evaluation's heap limit, default 1 GiB), max_depth
    (evaluation's nesting limit in levels, 1 to 4000000, default 1000000)."""

    def __init__(self, handle, name, evaluator="fast", inline=None, max_prec=4096,
                 heap_bytes=1 << 30, max_depth=1000000):
        self._h = handle
        self.name = name
        if evaluator not in EVALUATORS:
            raise UsageError("evaluator must be fast, ref or ball, not %r" % (evaluator,))
        self.evaluator = evaluator
        self.inline = inline
        self.max_prec = max_prec
        self.heap_bytes = heap_bytes
        self.max_depth = max_depth
        self._fns = {}

    def _handle(self):
        if not self._h:
            raise ValueError("the program %s is closed" % self.name)
        return self._h

    def close(self):
        if self._h:
            with _lib.LOCK:
                _lib.lib.chad_free(self._h)
            self._h = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _text(self, fname, *args):
        with _lib.LOCK:
            _lib.lib.chad_set_inline(self._handle(), _lib.inline_mode(self.inline))
            rc, out, d = _lib.call(fname, self._handle(), *args)
        if rc:
            raise from_diag(d)
        return out

    def check(self, fn=None, args=None, candidate=None, **options):
        """chad check. Without a candidate: type checks every definition and
        returns {name: type as text}, in order. With one: grades it as
        chad check --candidate (Function.check: fn's value and derivatives
        at args, options tangent, cotangent, ulps, rtol, precision) and
        returns a chad.Verdict."""
        if candidate is not None:
            return self.function(fn).check(args if args is not None else [], candidate,
                                           **options)
        if fn is not None or args is not None or options:
            raise UsageError("check: fn, args and options need a candidate")
        out = self._text("chad_check")
        res = {}
        for line in out.splitlines():
            name, _, ty = line.partition(" : ")
            res[name] = ty
        return res

    @property
    def names(self):
        return list(self.check())

    def print(self, fn=None):
        return self._text("chad_print", fn.encode() if fn else None)

    def fwd(self, fn=None, raw=False):
        return self._text("chad_print_fwd", fn.encode() if fn else None, 1 if raw else 0)

    def rev(self, fn=None, raw=False):
        return self._text("chad_print_rev", fn.encode() if fn else None, 1 if raw else 0)

    def export(self, fn=None, target="torch"):
        """chad export --to target: the definition as a program of another
        system (target "torch": a Python module over PyTorch)."""
        if not _lib.HAS_EXPORT:
            raise UsageError("this libchad has no chad_export")
        return self._text("chad_export", fn.encode() if fn else None, target.encode())

    def function(self, fn=None):
        """The definition fn (None: the last one, as the command line)."""
        key = fn
        if key in self._fns:
            return self._fns[key]
        with _lib.LOCK:
            d = _lib.Diag()
            k = _lib.lib.chad_fn(self._handle(), fn.encode() if fn else None, d)
        if k < 0:
            raise from_diag(d)
        if fn is None:   # the k-th definition's header
            header = [l for l in self.print(None).splitlines() if l.startswith("def ")][k]
        else:
            header = self.print(fn).splitlines()[0]
        name, params, result = T.split_header(header)
        f = Function(self, name, params, result)
        self._fns[key] = f
        return f

    def __getitem__(self, fn):
        return self.function(fn)

    def __getattr__(self, fn):
        if fn.startswith("_"):
            raise AttributeError(fn)
        try:
            return self.function(fn)
        except UsageError:
            raise AttributeError("%s has no definition named %r" % (self.name, fn)) from None

    def __repr__(self):
        return "<chad program %s>" % self.name


def _check_max_depth(d):
    if not (isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= MAX_DEPTH_CAP):
        raise UsageError("max_depth must be a number of levels from 1 to %d, not %r"
                         % (MAX_DEPTH_CAP, d))


def _opts(kw):
    allowed = {"evaluator", "inline", "max_prec", "heap_bytes", "max_depth"}
    bad = set(kw) - allowed
    if bad:
        raise TypeError("unknown option(s): %s" % ", ".join(sorted(bad)))
    return kw


def load(path, **options):
    """Loads (parses) the program in the file `path`. Options: evaluator,
    inline, max_prec, heap_bytes, max_depth (see Program). Raises InputError (with
    file:line:col) on a parse error; type errors are reported by the first
    command that elaborates the ill-typed definition."""
    _opts(options)
    path = str(path)
    with _lib.LOCK:
        d = _lib.Diag()
        h = _lib.lib.chad_load_file(path.encode(), d)
    if not h:
        raise from_diag(d)
    return Program(h, path, **options)


def loads(source, name="<string>", **options):
    """Loads a program from its source text; `name` is the file name used
    in error messages and branch point positions."""
    _opts(options)
    b = source.encode("utf-8")
    with _lib.LOCK:
        d = _lib.Diag()
        h = _lib.lib.chad_load_string(b, len(b), name.encode(), d)
    if not h:
        raise from_diag(d)
    return Program(h, name, **options)


__all__ = ["load", "loads", "Program", "Function", "Result", "Certificate", "Enclosure",
           "Limit"]
