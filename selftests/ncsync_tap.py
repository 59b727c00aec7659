# SPDX-License-Identifier: GPL-2.0
#
# TAP results of the Python selftests (ncsync_nlspec.py,
# ncsync_json_vocab.py, ncsync_ynl.py, ncsync_nldoc.py,
# ncsync_samples.py) and of tools/ynl-gen --check; not a test of its own.


class Tap:
    """Numbered TAP results; done() prints the plan and the exit status."""

    def __init__(self):
        self.n = 0
        self.failed = 0

    def __call__(self, ok, desc, why=''):
        """One result; @why, on a failure, as comment lines."""
        self.n += 1
        if not ok:
            self.failed += 1
        print(('ok' if ok else 'not ok') + ' %d - %s' % (self.n, desc))
        if not ok and why:
            for line in str(why).splitlines()[:20]:
                print('#   ' + line)

    def done(self):
        print('1..%d' % self.n)
        return 1 if self.failed else 0
