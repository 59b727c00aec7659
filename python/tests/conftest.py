# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
"""pytest configuration of the ncsync package's tests, and a TAP reporter.

``--tap`` prints one TAP line per test ("ok N - NODEID", "not ok N -
NODEID" followed by the failure as "# " lines, "ok N - NODEID # SKIP
why"), and a collection error as a "not ok" line of its own, so that
tools/check counts every test; with it nothing else is printed.  The plan
line comes last.
"""

import os
import sys

import pytest

TOP = os.environ.get('NCSYNC_TOP',
                     os.path.abspath(os.path.join(os.path.dirname(__file__),
                                                  '..', '..')))
BUILD = os.environ.get('NCSYNC_BUILD', os.path.join(TOP, 'build'))


def pytest_addoption(parser):
    parser.addoption('--tap', action='store_true',
                     help='print TAP: one line per test (python/run-tests)')


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    if config.getoption('tap'):
        # TAP alone on standard output: the terminal reporter goes (its
        # options stay, for the assertion messages).
        term = config.pluginmanager.getplugin('terminalreporter')
        if term is not None:
            config.pluginmanager.unregister(term)
        config.pluginmanager.register(TapReporter(), 'ncsync-tap')


class TapReporter:
    """One TAP line per test, on standard output."""

    def __init__(self):
        self.n = 0
        self.counts = {'passed': 0, 'failed': 0, 'skipped': 0}

    def _line(self, ok: bool, name: str, directive: str = '',
              details: str = ''):
        self.n += 1
        self.counts['passed' if ok and not directive else
                    'skipped' if ok else 'failed'] += 1
        print('%s %d - %s%s' % ('ok' if ok else 'not ok', self.n, name,
                                directive), flush=True)
        for line in details.splitlines()[-60:]:
            print('# ' + line, flush=True)

    def pytest_sessionstart(self, session):
        print('TAP version 13', flush=True)

    def pytest_collectreport(self, report):
        if report.failed:
            self._line(False, 'collect %s' % report.nodeid,
                       details=str(report.longrepr))

    def pytest_runtest_logreport(self, report):
        if report.when == 'call':
            if report.skipped:
                self._skip(report)
            else:
                self._line(report.passed, report.nodeid,
                           details='' if report.passed
                           else str(report.longrepr))
        elif report.failed:
            self._line(False, '%s (%s)' % (report.nodeid, report.when),
                       details=str(report.longrepr))
        elif report.skipped:
            self._skip(report)

    def _skip(self, report):
        why = report.longrepr[2] if isinstance(report.longrepr, tuple) \
            else str(report.longrepr)
        if hasattr(report, 'wasxfail'):
            why = 'xfail ' + report.wasxfail
        self._line(True, report.nodeid, ' # SKIP %s' % why)

    def pytest_sessionfinish(self, session, exitstatus):
        print('1..%d' % self.n)
        print('# pytest: %(passed)d passed, %(failed)d failed, '
              '%(skipped)d skipped' % self.counts, flush=True)


@pytest.fixture
def examples():
    """The directory of the example programs (examples/*.s)."""
    return os.path.join(TOP, 'examples')


@pytest.fixture
def example_text(examples):
    """The text of examples/NAME."""
    def read(name: str) -> str:
        with open(os.path.join(examples, name)) as f:
            return f.read()
    return read


sys.path.insert(0, os.path.dirname(__file__))
