"""tracelint for Python: validate trace files from a producer's tests.

A thin ctypes layer over the shared library libtracelint.so.1 (no compiled
extension). Validate a file, bytes, or a stream fed as the trace is written;
diagnostics come back as Python objects.

    import tracelint
    result = tracelint.validate_path("out/run1.xray")
    assert result.valid, result.diagnostics

    with tracelint.Stream(format="xray", name="run1.xray") as stream:
        for buffer in tracer.buffers():
            stream.feed(buffer)
    assert stream.result.valid

The library is found through the TRACELINT_LIBRARY environment variable (a
path), else as libtracelint.so.1 on the loader's path.
"""

import ctypes
import ctypes.util
import os
import threading
from dataclasses import dataclass, field
from typing import List, Optional

__all__ = ["Diagnostic", "Result", "Stream", "TracelintError", "validate_path",
           "validate_bytes", "version", "FORMATS"]

FORMATS = ("auto", "xray", "dcfg", "dcfg-trace", "umtrace", "tfile")
_ENDIANS = ("auto", "little", "big")
_SEVERITIES = ("note", "warning", "error")
_STATUS = {0: "ok", 1: "unreadable", 2: "unknown format", 3: "usage"}


class _RuleInfo(ctypes.Structure):
    _fields_ = [("id", ctypes.c_char_p), ("severity", ctypes.c_int), ("format", ctypes.c_char_p),
                ("summary", ctypes.c_char_p), ("source", ctypes.c_char_p)]


class _Location(ctypes.Structure):
    _fields_ = [("offset", ctypes.c_uint64), ("line", ctypes.c_uint32), ("column", ctypes.c_uint32),
                ("record", ctypes.c_int64), ("member", ctypes.c_char_p), ("pointer", ctypes.c_char_p)]


class _Diagnostic(ctypes.Structure):
    _fields_ = [("rule", ctypes.POINTER(_RuleInfo)), ("severity", ctypes.c_int),
                ("loc", _Location), ("message", ctypes.c_char_p)]


_DIAG_FN = ctypes.CFUNCTYPE(None, ctypes.POINTER(_Diagnostic), ctypes.c_void_p)


class _Options(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("format", ctypes.c_int), ("endian", ctypes.c_int),
                ("pair_path", ctypes.c_char_p), ("instr_map_path", ctypes.c_char_p),
                ("max_errors", ctypes.c_uint), ("werror", ctypes.c_bool), ("on_diag", _DIAG_FN),
                ("user", ctypes.c_void_p), ("rule_settings", ctypes.c_void_p),
                ("rule_setting_count", ctypes.c_size_t), ("stdin_limit", ctypes.c_uint64)]


class _Result(ctypes.Structure):
    _fields_ = [("format", ctypes.c_int), ("valid", ctypes.c_bool), ("errors", ctypes.c_uint64),
                ("warnings", ctypes.c_uint64), ("notes", ctypes.c_uint64), ("truncated", ctypes.c_bool),
                ("detail", ctypes.c_char * 128)]


def _load():
    path = os.environ.get("TRACELINT_LIBRARY") or ctypes.util.find_library("tracelint") or "libtracelint.so.1"
    lib = ctypes.CDLL(path)
    lib.tl_options_init_sized.argtypes = [ctypes.POINTER(_Options), ctypes.c_size_t]
    lib.tl_validate_path_sized.argtypes = [ctypes.c_char_p, ctypes.POINTER(_Options), ctypes.POINTER(_Result),
                                           ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
    lib.tl_validate_buffer_sized.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                             ctypes.POINTER(_Options), ctypes.POINTER(_Result), ctypes.c_size_t,
                                             ctypes.c_char_p, ctypes.c_size_t]
    lib.tl_stream_new.restype = ctypes.c_void_p
    lib.tl_stream_new.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(_Options), ctypes.c_char_p,
                                  ctypes.c_size_t]
    lib.tl_stream_feed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.tl_stream_finish_sized.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Result), ctypes.c_size_t,
                                           ctypes.c_char_p, ctypes.c_size_t]
    lib.tl_stream_free.argtypes = [ctypes.c_void_p]
    lib.tl_version.restype = ctypes.c_char_p
    lib.tl_format_name.restype = ctypes.c_char_p
    return lib


_lib = _load()


def version() -> str:
    """The version of the library in use, e.g. "0.1.0"."""
    return _lib.tl_version().decode()


def _text(raw: Optional[bytes]) -> Optional[str]:
    return None if raw is None else raw.decode("utf-8", "surrogateescape")


@dataclass
class Diagnostic:
    """One finding: rule ID, severity, where, and what was expected and found."""
    rule: str
    severity: str
    message: str
    offset: int
    line: Optional[int] = None       # JSON and text inputs
    column: Optional[int] = None
    record: Optional[int] = None     # binary records and frames
    member: Optional[str] = None     # file of a UMTracer trace directory
    pointer: Optional[str] = None    # RFC 6901 JSON Pointer

    def __str__(self):
        where = f"{self.line}:{self.column}" if self.line else str(self.offset)
        return f"{where}: {self.severity}: {self.message} [{self.rule}]"


@dataclass
class Result:
    """The verdict of one validation and every diagnostic reported."""
    format: str
    valid: bool
    errors: int
    warnings: int
    notes: int
    truncated: bool
    detail: str
    diagnostics: List[Diagnostic] = field(default_factory=list)


class TracelintError(Exception):
    """The input could not be validated: unreadable, of no known format, or bad options."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = _STATUS.get(status, str(status))


def _options(format, endian, pair, instr_map, max_errors, werror, stdin_limit):
    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {format!r}")
    if endian not in _ENDIANS:
        raise ValueError(f"endian must be one of {', '.join(_ENDIANS)}, not {endian!r}")
    found: List[Diagnostic] = []
    opts = _Options()
    _lib.tl_options_init_sized(ctypes.byref(opts), ctypes.sizeof(opts))
    opts.format = FORMATS.index(format)
    opts.endian = _ENDIANS.index(endian)
    opts.pair_path = os.fsencode(pair) if pair else None
    opts.instr_map_path = os.fsencode(instr_map) if instr_map else None
    opts.max_errors = max_errors
    opts.werror = werror
    opts.stdin_limit = stdin_limit

    def collect(diag_ptr, _user):
        d = diag_ptr.contents
        loc = d.loc
        found.append(Diagnostic(
            rule=d.rule.contents.id.decode(), severity=_SEVERITIES[d.severity], message=_text(d.message),
            offset=loc.offset, line=loc.line or None, column=loc.column or None,
            record=loc.record if loc.record >= 0 else None, member=_text(loc.member),
            pointer=_text(loc.pointer)))

    callback = _DIAG_FN(collect)
    opts.on_diag = callback
    return opts, callback, found


def _result(status, res, err, found) -> Result:
    if status != 0:
        raise TracelintError(status, _text(err.value) or _STATUS.get(status, "cannot validate"))
    return Result(format=_lib.tl_format_name(res.format).decode(), valid=res.valid, errors=res.errors,
                  warnings=res.warnings, notes=res.notes, truncated=res.truncated,
                  detail=_text(res.detail), diagnostics=found)


def validate_path(path, *, format="auto", endian="auto", pair=None, instr_map=None, max_errors=100,
                  werror=False) -> Result:
    """Validates a file or a UMTracer trace directory."""
    opts, _keep, found = _options(format, endian, pair, instr_map, max_errors, werror, 0)
    res, err = _Result(), ctypes.create_string_buffer(1024)
    status = _lib.tl_validate_path_sized(os.fsencode(path), ctypes.byref(opts), ctypes.byref(res),
                                         ctypes.sizeof(res), err, len(err))
    return _result(status, res, err, found)


def validate_bytes(data: bytes, *, name="buffer", format="auto", endian="auto", pair=None, instr_map=None,
                   max_errors=100, werror=False) -> Result:
    """Validates bytes held in memory (name appears in messages only)."""
    opts, _keep, found = _options(format, endian, pair, instr_map, max_errors, werror, 0)
    res, err = _Result(), ctypes.create_string_buffer(1024)
    data = bytes(data)
    status = _lib.tl_validate_buffer_sized(data, len(data), os.fsencode(name), ctypes.byref(opts),
                                           ctypes.byref(res), ctypes.sizeof(res), err, len(err))
    return _result(status, res, err, found)


class Stream:
    """Validation of a trace fed in pieces as it is written; finish() (or the
    end of a with block) gives the Result of the whole, whatever the pieces.
    A Stream may be used from several threads: feed, finish and close take
    turns (ctypes lets them run outside the GIL, and the library allows one
    call on a stream at a time); feed after finish or close raises ValueError."""

    def __init__(self, *, format="auto", name="stream", endian="auto", pair=None, instr_map=None,
                 max_errors=100, werror=False, limit=0):
        self._lock = threading.RLock()
        self._handle = None
        self._opts, self._keep, self._found = _options(format, endian, pair, instr_map, max_errors, werror,
                                                       limit)
        err = ctypes.create_string_buffer(1024)
        self._handle = _lib.tl_stream_new(FORMATS.index(format), os.fsencode(name), ctypes.byref(self._opts),
                                          err, len(err))
        if not self._handle:
            raise TracelintError(1, _text(err.value))
        self.result: Optional[Result] = None

    def feed(self, data: bytes) -> None:
        data = bytes(data)
        with self._lock:
            if not self._handle:
                raise ValueError("the stream is finished")
            if _lib.tl_stream_feed(self._handle, data, len(data)) != 0:
                self.finish()  # raises TracelintError with the reason (disk full, the limit)

    def finish(self) -> Result:
        with self._lock:
            if not self._handle:
                raise ValueError("the stream is finished")
            res, err = _Result(), ctypes.create_string_buffer(1024)
            handle, self._handle = self._handle, None
            status = _lib.tl_stream_finish_sized(handle, ctypes.byref(res), ctypes.sizeof(res), err, len(err))
            self.result = _result(status, res, err, self._found)
            return self.result

    def close(self) -> None:
        """Abandons the stream without a verdict."""
        lock = getattr(self, "_lock", None)
        if lock is None:  # __init__ did not get that far
            return
        with lock:
            if self._handle:
                _lib.tl_stream_free(self._handle)
                self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            self.finish()
        else:
            self.close()
        return False

    def __del__(self):
        self.close()
