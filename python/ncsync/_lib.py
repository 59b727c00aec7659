# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""libncsync loaded through cffi (ABI mode), and the helpers every module uses.

``ffi`` and ``lib`` come from ``_ffi.py``, which ``python/gen_ffi.py``
generates from <ncsync.h> at build time.  The library is found as
$NCSYNC_LIBRARY when set, else by its soname (the dynamic linker's search:
LD_LIBRARY_PATH, the ld.so cache), else in the directory ``make install``
put it in (``_paths.LIBDIR``).
"""

import errno as _errno
import os
from typing import Optional

from ._ffi import ffi

SONAME = 'libncsync.so.1'


def _load():
    tried = []
    env = os.environ.get('NCSYNC_LIBRARY')
    names = [env] if env else [SONAME]
    if not env:
        try:
            from . import _paths
            names.append(os.path.join(_paths.LIBDIR, SONAME))
        except ImportError:
            pass
    for name in names:
        try:
            return ffi.dlopen(name)
        except OSError as e:
            tried.append(str(e))
    raise ImportError('ncsync: cannot load libncsync (%s); in the tree, '
                      'set LD_LIBRARY_PATH=build/lib' % '; '.join(tried))


lib = _load()

# libc, for the library's functions that print to a FILE *.
_libc = None


def _cstdio():
    global _libc
    if _libc is None:
        from cffi import FFI
        cffi = FFI()
        cffi.cdef('FILE *open_memstream(char **ptr, size_t *size);'
                  'int fclose(FILE *f); void free(void *p);')
        _libc = (cffi, cffi.dlopen(None))
    return _libc


def capture(fn) -> str:
    """The text @fn(FILE *) prints; fn returns a negative errno or >= 0."""
    cffi, libc = _cstdio()
    buf = cffi.new('char **')
    size = cffi.new('size_t *')
    f = libc.open_memstream(buf, size)
    if f == cffi.NULL:
        raise MemoryError('open_memstream')
    try:
        ret = fn(ffi.cast('FILE *', f))
    finally:
        libc.fclose(f)
        text = cffi.string(buf[0], size[0]).decode() if buf[0] else ''
        libc.free(buf[0])
    check(ret, 'printing')
    return text


def text(p) -> Optional[str]:
    """A C string (const char *) as str, or None for NULL."""
    return None if p == ffi.NULL else ffi.string(p).decode()


class Handle:
    """An object that owns a C pointer: freed by close(), by the end of a
    ``with`` block, or by the garbage collector, whichever comes first."""

    _what = 'object'

    def __init__(self, ptr, free):
        self._h = ffi.gc(ptr, free)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Free the C object now; the object is unusable afterwards."""
        if self._h is not None:
            ffi.release(self._h)
            self._h = None

    @property
    def closed(self) -> bool:
        """close() was called."""
        return self._h is None

    @property
    def ptr(self):
        """The C pointer (for cffi callers); ValueError once closed."""
        if self._h is None:
            raise ValueError('the %s was closed' % self._what)
        return self._h


class NcsyncError(OSError):
    """A libncsync call failed: ``errno`` is the negated return value.

    ``function`` names the C function that failed.  The subclasses add what
    the library tells of the failure (the record refused, the text line).
    """

    def __init__(self, err: int, function: str, detail: str = ''):
        msg = '%s: %s' % (function, os.strerror(err))
        if detail:
            msg += ': ' + detail
        super().__init__(err, msg)
        self.function = function


class NcsyncTimeout(NcsyncError, TimeoutError):
    """A wait or a program's wait reached its deadline (ETIMEDOUT)."""


def error(ret: int, function: str, detail: str = '') -> NcsyncError:
    """The exception for the negative errno @ret of @function."""
    cls = NcsyncTimeout if -ret == _errno.ETIMEDOUT else NcsyncError
    return cls(-ret, function, detail)


def check(ret: int, function: str) -> int:
    """@ret when it is not negative; else raise its NcsyncError."""
    if ret < 0:
        raise error(ret, function)
    return ret


def engine_id(engine) -> int:
    """An engine given by number or name ("pool", "act", ...)."""
    if isinstance(engine, str):
        for e in range(1, 16):
            if text(lib.ncsync_engine_name(e)) == engine.lower():
                return e
        raise ValueError('no engine named %r' % engine)
    return int(engine)


def engine_name(engine: int) -> str:
    """The name of engine number @engine."""
    return text(lib.ncsync_engine_name(engine)) or str(engine)
