"""ctypes binding of libchad.so (include/chad.h).

The library is found in this order, the first that loads winning:
  1. the path in the environment variable CHAD_LIBRARY (then only that);
  2. libchad.so.0 next to this package (python/chad/libchad.so.0: for a
     copy of the package shipped with its library);
  3. build/pic/libchad.so.0 of the source tree this package sits in
     (python/chad/ -> ../../build/pic: a checkout after `make shared`);
  4. the system's libchad.so.0 through the dynamic loader (an installed
     `make install`: ldconfig's cache, LD_LIBRARY_PATH).
"""
import ctypes
import ctypes.util
import os
import threading

# libchad is not thread safe: every call into it holds this lock.
LOCK = threading.RLock()


class Diag(ctypes.Structure):
    _fields_ = [
        ("exit_code", ctypes.c_int),
        ("file", ctypes.c_char * 256),
        ("line", ctypes.c_int),
        ("col", ctypes.c_int),
        ("msg", ctypes.c_char * 512),
    ]


class Json(ctypes.Structure):
    _fields_ = [
        ("text", ctypes.c_char_p),
        ("len", ctypes.c_size_t),
        ("name", ctypes.c_char_p),
    ]


class CheckOpts(ctypes.Structure):
    """chad_check_opts (include/chad.h)."""
    _fields_ = [("fn", ctypes.c_char_p), ("args", ctypes.POINTER(Json)),
                ("candidate", ctypes.POINTER(Json)), ("tangent", ctypes.POINTER(Json)),
                ("cotangent", ctypes.POINTER(Json)), ("ulps", ctypes.c_long),
                ("rtol", ctypes.c_double), ("f32", ctypes.c_int), ("json", ctypes.c_int)]


EVAL_FAST, EVAL_REF, EVAL_BALL = 0, 1, 2
# chad_set_inline's modes (chad.h)
INLINE_NEVER, INLINE_ALWAYS, INLINE_DEFAULT = 0, 1, 2


def inline_mode(inline):
    """The mode for Program.inline: None (the default), True or False."""
    if inline is None:
        return INLINE_DEFAULT
    return INLINE_ALWAYS if inline else INLINE_NEVER


def _candidates():
    env = os.environ.get("CHAD_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    beside = os.path.join(here, "libchad.so.0")
    tree = os.path.normpath(os.path.join(here, "..", "..", "build", "pic", "libchad.so.0"))
    out = [p for p in (beside, tree) if os.path.exists(p)]
    out.append("libchad.so.0")
    found = ctypes.util.find_library("chad")
    if found:
        out.append(found)
    return out


def _open():
    errors = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            errors.append("%s: %s" % (path, e))
    raise ImportError(
        "chad: cannot load libchad.so (build it with `make shared`, or set CHAD_LIBRARY "
        "to its path): " + "; ".join(errors))


lib, path = _open()
_libc = ctypes.CDLL(None)
_libc.free.argtypes = [ctypes.c_void_p]
_libc.free.restype = None

_out = ctypes.POINTER(ctypes.POINTER(ctypes.c_char))
_D = ctypes.POINTER(Diag)
_J = ctypes.POINTER(Json)
_P = ctypes.c_void_p
_s = ctypes.c_char_p
_i = ctypes.c_int


def _sig(name, res, *args):
    f = getattr(lib, name)
    f.restype = res
    f.argtypes = list(args)


_sig("chad_set_heap_limit", None, ctypes.c_size_t)
_sig("chad_set_evaluator", None, _i)
_sig("chad_set_max_prec", None, ctypes.c_long)
_sig("chad_set_max_depth", None, _i)
_sig("chad_set_certificate", None, _i)
_sig("chad_load_file", _P, _s, _D)
_sig("chad_load_string", _P, _s, ctypes.c_size_t, _s, _D)
_sig("chad_free", None, _P)
_sig("chad_set_inline", None, _P, _i)
_sig("chad_fn", _i, _P, _s, _D)
_sig("chad_check", _i, _P, _out, _D)
_sig("chad_print", _i, _P, _s, _out, _D)
_sig("chad_eval", _i, _P, _s, _J, _out, _D)
_sig("chad_print_fwd", _i, _P, _s, _i, _out, _D)
_sig("chad_print_rev", _i, _P, _s, _i, _out, _D)
_sig("chad_jvp", _i, _P, _s, _J, _J, _out, _D)
_sig("chad_vjp", _i, _P, _s, _J, _J, _out, _D)
_sig("chad_grad", _i, _P, _s, _J, _out, _D)
_sig("chad_jacobian", _i, _P, _s, _J, _i, _out, _D)
try:
    _sig("chad_check_candidate", _i, _P, ctypes.POINTER(CheckOpts), _out, _D)
    HAS_CHECK = True
except AttributeError:      # a libchad older than chad_check_candidate's export
    HAS_CHECK = False
try:
    _sig("chad_export", _i, _P, _s, _s, _out, _D)
    HAS_EXPORT = True
except AttributeError:      # a libchad without chad export
    HAS_EXPORT = False


def json_arg(text, name):
    """A chad_json for text (str or None: not given)."""
    if text is None:
        return None
    b = text.encode("utf-8")
    j = Json(b, len(b), name.encode("utf-8"))
    j._keep = b  # the bytes must outlive the call
    return j


def call(fname, *args):
    """Calls chad_<fname>(*args, &out, &d). Returns (rc, out text or None, Diag)."""
    d = Diag()
    out = ctypes.POINTER(ctypes.c_char)()
    f = getattr(lib, fname)
    rc = f(*args, ctypes.byref(out), ctypes.byref(d))
    text = None
    if out:
        text = ctypes.string_at(out).decode("utf-8")
        _libc.free(out)
    return rc, text, d
