# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""The package as a Python user meets it: help(), docstrings, type hints,
the exception hierarchy, and no device needed to import it."""

import inspect
import pydoc
import typing

import pytest

import ncsync


def public_callables():
    for name in ncsync.__all__:
        obj = getattr(ncsync, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            yield name, obj


@pytest.mark.parametrize('name,obj', list(public_callables()))
def test_every_public_name_is_documented(name, obj):
    assert inspect.getdoc(obj), name
    if inspect.isclass(obj):
        for m, f in inspect.getmembers(obj, inspect.isfunction):
            if not m.startswith('_'):
                assert inspect.getdoc(f), '%s.%s' % (name, m)


def test_builders_have_type_hints():
    for m, f in inspect.getmembers(ncsync.Stream, inspect.isfunction):
        if m.startswith('add_'):
            hints = typing.get_type_hints(f)
            assert hints.get('return') is int, m
            params = list(inspect.signature(f).parameters)[1:]
            assert all(p in hints for p in params), m


def test_every_builder_of_the_header_is_bound():
    # Each ncsync_add_* of <ncsync.h> is a method of Stream or Program.
    from ncsync._lib import lib
    names = [n[len('ncsync_'):] for n in dir(lib)
             if n.startswith('ncsync_add_')]
    assert len(names) > 30
    missing = [n for n in names if not hasattr(ncsync.Stream, n)
               and not hasattr(ncsync.Program, n)]
    assert not missing


def test_help_describes_the_package():
    text = pydoc.render_doc(ncsync, renderer=pydoc.plaintext)
    for word in ('Program', 'Device', 'check', 'replay', 'NcsyncError',
                 'PYTHONPATH=build/python'):
        assert word in text
    text = pydoc.render_doc(ncsync.Device, renderer=pydoc.plaintext)
    assert 'memoryview' in text and 'wait_sem' in text


def test_errors_are_oserrors():
    for cls in (ncsync.NcsyncError, ncsync.RecordRefused, ncsync.AsmError,
                ncsync.LowerError, ncsync.ReplayError, ncsync.NcsyncTimeout):
        assert issubclass(cls, OSError)
    assert issubclass(ncsync.NcsyncTimeout, TimeoutError)
