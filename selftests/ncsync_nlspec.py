#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# ncsync selftest: the live generic netlink family "ncsync" against its YNL
# spec, Documentation/netlink/ncsync.yaml.  Asks the kernel's controller
# (CTRL_CMD_GETFAMILY, CTRL_CMD_GETPOLICY) for the family as registered
# and compares, with the spec:
#
# - the attribute space's size (maxattr) with the attribute set's;
# - the operations: the kernel's ops are exactly the spec's do and dump
#   operations, with the same ids, admin-perm flag, do and dump;
# - each op's request policy: the kernel validates exactly the attributes
#   the spec's request lists, each of the spec's type, with the spec's
#   checks (min, max, exact-len);
# - the multicast groups: the same names; joining one as an unprivileged
#   user fails with EPERM exactly when the spec marks it admin-perm;
# - the replies of get-core and get-programs on core 0, which the caller
#   gave more programs than a get-core reply holds: exactly the
#   attributes the spec lists for them (truncated included);
# - the notifications: with core 1's event notifications on, an event
#   write, a program that ends and one that times out, run there by the
#   ncsync tool, are announced on the notify group by messages whose
#   command is the spec's event operation, each with exactly the spec's
#   event attributes.
#
# Usage: ncsync_nlspec.py SPEC TOOL.  Prints TAP results and the plan.
# Run by ncsync_nlspec_test.sh in the test VM with the module loaded, as
# root.
import errno
import os
import select
import socket
import struct
import subprocess
import sys
import tempfile

import yaml

from ncsync_tap import Tap

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_ADD_MEMBERSHIP = 1
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 0x1, 0x4, 0x300
NLMSG_ERROR, NLMSG_DONE = 2, 3
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY, CTRL_CMD_GETPOLICY = 3, 10
(CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME, CTRL_ATTR_MAXATTR,
 CTRL_ATTR_OPS, CTRL_ATTR_MCAST_GROUPS, CTRL_ATTR_POLICY,
 CTRL_ATTR_OP_POLICY) = 1, 2, 5, 6, 7, 8, 9
CTRL_ATTR_OP_ID, CTRL_ATTR_OP_FLAGS = 1, 2
CTRL_ATTR_MCAST_GRP_NAME, CTRL_ATTR_MCAST_GRP_ID = 1, 2
CTRL_ATTR_POLICY_DO, CTRL_ATTR_POLICY_DUMP = 1, 2
GENL_ADMIN_PERM, GENL_CMD_CAP_DO, GENL_CMD_CAP_DUMP = 0x1, 0x2, 0x4
GENL_CMD_CAP_HASPOL = 0x8

# enum netlink_attribute_type and enum netlink_policy_type_attr.
NL_ATTR_TYPE = {'flag': 1, 'u8': 2, 'u16': 3, 'u32': 4, 'u64': 5,
                's8': 6, 's16': 7, 's32': 8, 's64': 9, 'binary': 10,
                'string': 11, 'nest': 13}
(NL_POLICY_TYPE_ATTR_TYPE, NL_POLICY_TYPE_ATTR_MIN_VALUE_S,
 NL_POLICY_TYPE_ATTR_MAX_VALUE_S, NL_POLICY_TYPE_ATTR_MIN_VALUE_U,
 NL_POLICY_TYPE_ATTR_MAX_VALUE_U, NL_POLICY_TYPE_ATTR_MIN_LENGTH,
 NL_POLICY_TYPE_ATTR_MAX_LENGTH) = 1, 2, 3, 4, 5, 6, 7
NL_POLICY_TYPE_ATTR_PAD = 11
INT_BITS = {'u8': 8, 'u16': 16, 'u32': 32, 'u64': 64,
            's8': 8, 's16': 16, 's32': 32, 's64': 64}

tap = Tap()


def attrs(data):
    """The attributes of a buffer: {type: [payload, ...]}."""
    out = {}
    off = 0
    while off + 4 <= len(data):
        alen, atype = struct.unpack_from('HH', data, off)
        if alen < 4:
            break
        out.setdefault(atype & 0x3fff, []).append(data[off + 4:off + alen])
        off += (alen + 3) & ~3
    return out


def attr(buf, atype):
    return attrs(buf).get(atype, [None])[0]


def u32(b):
    return struct.unpack('I', b[:4])[0]


def ctrl_request(cmd, flags, payload):
    """Send a controller request; return the payload of every reply."""
    return genl_request(GENL_ID_CTRL, cmd, flags, payload)


def genl_request(family, cmd, flags, payload):
    """Send a request (version 1); return the payload of every reply."""
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    try:
        body = struct.pack('BBH', cmd, 1, 0) + payload
        hdr = struct.pack('IHHII', 16 + len(body), family,
                          NLM_F_REQUEST | NLM_F_ACK | flags, 1, 0)
        s.send(hdr + body)
        return ctrl_replies(s)
    finally:
        s.close()


def ctrl_replies(s):
    replies = []
    while True:
        data = s.recv(1 << 20)
        off = 0
        while off + 16 <= len(data):
            mlen, mtype = struct.unpack_from('IH', data, off)
            msg = data[off + 16:off + mlen]
            off += (mlen + 3) & ~3
            if mtype == NLMSG_DONE:
                return replies
            if mtype == NLMSG_ERROR:
                err = struct.unpack_from('i', msg)[0]
                if err:
                    raise OSError(-err, os.strerror(-err))
                return replies
            replies.append(msg[4:])


def nla(atype, payload):
    return struct.pack('HH', 4 + len(payload), atype) + payload + \
        b'\0' * (-len(payload) % 4)


def family_name_attr(name):
    return nla(CTRL_ATTR_FAMILY_NAME, name.encode() + b'\0')


def get_family(name):
    msg = ctrl_request(CTRL_CMD_GETFAMILY, 0, family_name_attr(name))[0]
    fam = {'id': struct.unpack('H', attr(msg, CTRL_ATTR_FAMILY_ID)[:2])[0],
           'maxattr': u32(attr(msg, CTRL_ATTR_MAXATTR)),
           'ops': {}, 'groups': {}}
    for op in attrs(attr(msg, CTRL_ATTR_OPS) or b'').values():
        a = attrs(op[0])
        fam['ops'][u32(a[CTRL_ATTR_OP_ID][0])] = \
            u32(a[CTRL_ATTR_OP_FLAGS][0])
    for grp in attrs(attr(msg, CTRL_ATTR_MCAST_GROUPS) or b'').values():
        a = attrs(grp[0])
        gname = a[CTRL_ATTR_MCAST_GRP_NAME][0].rstrip(b'\0').decode()
        fam['groups'][gname] = u32(a[CTRL_ATTR_MCAST_GRP_ID][0])
    return fam


def int_of(b):
    return struct.unpack('q' if len(b) == 8 else 'i', b)[0]


def get_policies(name):
    """{(op, 'do'|'dump'): {attr: {field: value}}} of the family."""
    op_pol = {}
    pols = {}
    for msg in ctrl_request(CTRL_CMD_GETPOLICY, NLM_F_DUMP,
                            family_name_attr(name)):
        a = attrs(msg)
        for opnest in a.get(CTRL_ATTR_OP_POLICY, []):
            for op, kinds in attrs(opnest).items():
                k = attrs(kinds[0])
                for kind, t in (('do', CTRL_ATTR_POLICY_DO),
                                ('dump', CTRL_ATTR_POLICY_DUMP)):
                    if t in k:
                        op_pol[(op, kind)] = u32(k[t][0])
        for polnest in a.get(CTRL_ATTR_POLICY, []):
            for idx, anests in attrs(polnest).items():
                for atype, fields in attrs(anests[0]).items():
                    f = {t: int_of(v[0]) if len(v[0]) in (4, 8) else v[0]
                         for t, v in attrs(fields[0]).items()
                         if t != NL_POLICY_TYPE_ATTR_PAD}
                    pols.setdefault(idx, {})[atype] = f
    return {key: pols.get(idx, {}) for key, idx in op_pol.items()}


def spec_policy(spec_attr):
    """The policy the kernel reports for a spec attribute, as a dict."""
    t = spec_attr['type']
    want = {NL_POLICY_TYPE_ATTR_TYPE: NL_ATTR_TYPE[t]}
    checks = spec_attr.get('checks', {})
    if t in INT_BITS:
        bits = INT_BITS[t]
        if t[0] == 'u':
            want[NL_POLICY_TYPE_ATTR_MIN_VALUE_U] = checks.get('min', 0)
            want[NL_POLICY_TYPE_ATTR_MAX_VALUE_U] = \
                checks.get('max', (1 << bits) - 1)
        else:
            want[NL_POLICY_TYPE_ATTR_MIN_VALUE_S] = \
                checks.get('min', -(1 << (bits - 1)))
            want[NL_POLICY_TYPE_ATTR_MAX_VALUE_S] = \
                checks.get('max', (1 << (bits - 1)) - 1)
    if 'exact-len' in checks:
        want[NL_POLICY_TYPE_ATTR_MIN_LENGTH] = checks['exact-len']
        want[NL_POLICY_TYPE_ATTR_MAX_LENGTH] = checks['exact-len']
    return want


def unsigned(policy):
    """Read the unsigned bounds as unsigned (they are u64 on the wire)."""
    out = dict(policy)
    for t in (NL_POLICY_TYPE_ATTR_MIN_VALUE_U,
              NL_POLICY_TYPE_ATTR_MAX_VALUE_U):
        if t in out and out[t] < 0:
            out[t] += 1 << 64
    return out


def join_as_nobody(group_id):
    """Join a group as uid 65534, no capability: 0 or the errno."""
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                              NETLINK_GENERIC)
            s.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, group_id)
        except OSError as e:
            code = e.errno or 255
        os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def check_ops(spec, fam, pols, set_attrs):
    kernel_ops = set(fam['ops'])
    spec_ops = {}
    for op in spec['operations']['list']:
        if 'do' in op or 'dump' in op:
            spec_ops[op['value']] = op
    tap(kernel_ops == set(spec_ops),
        'the kernel\'s ops are the spec\'s do/dump operations',
        'kernel %s, spec %s' % (sorted(kernel_ops), sorted(spec_ops)))
    for value, op in sorted(spec_ops.items()):
        flags = fam['ops'].get(value, 0)
        admin = 'admin-perm' in op.get('flags', [])
        tap(bool(flags & GENL_ADMIN_PERM) == admin,
            '%s: admin-perm %s' % (op['name'], admin), 'flags %#x' % flags)
        for kind, cap in (('do', GENL_CMD_CAP_DO),
                          ('dump', GENL_CMD_CAP_DUMP)):
            tap(bool(flags & cap) == (kind in op),
                '%s: %s %s' % (op['name'], kind,
                               'present' if kind in op else 'absent'),
                'flags %#x' % flags)
            if kind in op:
                check_request(op, kind, pols.get((value, kind)), set_attrs)


def check_request(op, kind, policy, set_attrs):
    names = op[kind].get('request', {}).get('attributes', [])
    index = {a['name']: i + 1 for i, a in enumerate(set_attrs)}
    want = {index[a]: unsigned(spec_policy(set_attrs[index[a] - 1]))
            for a in names}
    got = {t: unsigned(p) for t, p in (policy or {}).items()}
    tap(set(got) == set(want),
        '%s %s: the kernel validates exactly the request\'s attributes %s'
        % (op['name'], kind, names),
        'kernel %s, spec %s' % (sorted(got), sorted(want)))
    for t in sorted(set(got) & set(want)):
        name = set_attrs[t - 1]['name']
        tap(got[t] == want[t],
            '%s %s: %s has the spec\'s type and checks' %
            (op['name'], kind, name),
            'kernel %s\nspec   %s' % (got[t], want[t]))


def check_groups(spec, fam):
    spec_grps = {g['name']: g for g in spec['mcast-groups']['list']}
    tap(set(fam['groups']) == set(spec_grps),
        'the kernel\'s multicast groups are the spec\'s',
        'kernel %s, spec %s' % (sorted(fam['groups']), sorted(spec_grps)))
    for name, grp in sorted(spec_grps.items()):
        if name not in fam['groups']:
            continue
        admin = 'admin-perm' in grp.get('flags', [])
        err = join_as_nobody(fam['groups'][name])
        want = errno.EPERM if admin else 0
        tap(err == want,
            'group %s: an unprivileged join %s' %
            (name, 'fails with EPERM' if admin else 'succeeds'),
            'got %s' % (os.strerror(err) if err else 'success'))


def check_replies(spec, fam, set_attrs):
    """
    The replies of the ops whose request is a core, for core 0, which
    the set-up gave more programs than one message holds: their
    attributes are exactly the spec's reply attributes (pads aside).
    """
    names = {i + 1: a['name'] for i, a in enumerate(set_attrs)}
    index = {a['name']: i + 1 for i, a in enumerate(set_attrs)}
    pads = {i + 1 for i, a in enumerate(set_attrs) if a['type'] == 'pad'}
    request = nla(index['core'], struct.pack('I', 0))
    for op in spec['operations']['list']:
        for kind, flags in (('do', 0), ('dump', NLM_F_DUMP)):
            part = op.get(kind, {})
            if 'reply' not in part or \
                    part['request']['attributes'] != ['core']:
                continue
            got = set()
            for msg in genl_request(fam['id'], op['value'], flags, request):
                got |= set(attrs(msg)) - pads
            got = {names.get(t, t) for t in got}
            want = set(part['reply']['attributes'])
            tap(got == want,
                '%s %s: the reply has exactly the spec\'s attributes' %
                (op['name'], kind),
                'kernel %s\nspec   %s' % (sorted(got, key=str), sorted(want)))


# Core 1 is free: the set-up blocks its programs on core 0.
NTF_CORE = 1
# What the tool runs there: an event write, a program that ends, one
# whose watchdog ends it (sem[51] stays 0).
NTF_PROGS = {
    'done': 'engine pool\n\tnop\n\texit\n',
    'stuck': 'engine pool\n\tnop wait sem[51] >= 1\n\texit\n',
}


def spec_attr_value(set_attrs, name, value):
    """An attribute of the spec's set, encoded as its spec type says."""
    index = {a['name']: i + 1 for i, a in enumerate(set_attrs)}
    fmt = {'u8': 'B', 'u16': 'H', 'u32': 'I', 'u64': 'Q'}
    return nla(index[name], struct.pack(fmt[set_attrs[index[name] - 1]
                                           ['type']], value))


def set_notify(spec, fam, set_attrs, on):
    op = [o['value'] for o in spec['operations']['list']
          if o['name'] == 'set-notify'][0]
    genl_request(fam['id'], op, 0,
                 spec_attr_value(set_attrs, 'core', NTF_CORE) +
                 spec_attr_value(set_attrs, 'notify', on))


def ntf_trigger(tool):
    """Make core 1 send one notification of each kind."""
    core = ['-c', str(NTF_CORE)]
    subprocess.run([tool] + core + ['sem', 'set', '51', '0'],
                   stdout=subprocess.DEVNULL, check=True)
    subprocess.run([tool] + core + ['event', 'set', '7'],
                   stdout=subprocess.DEVNULL, check=True)
    with tempfile.TemporaryDirectory() as d:
        for name, text in sorted(NTF_PROGS.items()):
            path = os.path.join(d, name + '.s')
            with open(path, 'w') as f:
                f.write(text)
            subprocess.run([tool] + core + ['run', '--watchdog', '200',
                                            path],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)


def ntf_collect(s, want_cmds):
    """
    {cmd: set of top-level attribute types} of the core's notifications,
    read until every command of @want_cmds came (or 20 s of silence: the
    test then fails, it never hangs).
    """
    got = {}
    while not want_cmds <= set(got):
        if not select.select([s], [], [], 20)[0]:
            break
        data = s.recv(1 << 20)
        off = 0
        while off + 20 <= len(data):
            mlen = struct.unpack_from('I', data, off)[0]
            cmd = data[off + 16]
            a = attrs(data[off + 20:off + mlen])
            off += (mlen + 3) & ~3
            if a.get(1) and u32(a[1][0]) == NTF_CORE:
                got.setdefault(cmd, set(a))
    return got


def check_notifications(spec, fam, set_attrs, tool):
    names = {i + 1: a['name'] for i, a in enumerate(set_attrs)}
    pads = {i + 1 for i, a in enumerate(set_attrs) if a['type'] == 'pad'}
    events = {op['value']: op for op in spec['operations']['list']
              if 'event' in op}
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    try:
        s.bind((0, 0))
        s.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
                     fam['groups']['notify'])
        set_notify(spec, fam, set_attrs, 1)
        try:
            ntf_trigger(tool)
            got = ntf_collect(s, set(events))
        finally:
            set_notify(spec, fam, set_attrs, 0)
    finally:
        s.close()
    tap(set(got) == set(events),
        'the notifications are exactly the spec\'s event operations',
        'kernel %s, spec %s' % (sorted(got), sorted(events)))
    for value, op in sorted(events.items()):
        if value not in got:
            continue
        have = {names.get(t, t) for t in got[value] - pads}
        want = set(op['event']['attributes'])
        tap(have == want,
            '%s: the message has exactly the spec\'s attributes' %
            op['name'],
            'kernel %s\nspec   %s' % (sorted(have, key=str), sorted(want)))


def main():
    spec = yaml.safe_load(open(sys.argv[1]))
    set_attrs = [s for s in spec['attribute-sets']
                 if s['name'] == spec['name']][0]['attributes']
    try:
        fam = get_family(spec['name'])
        pols = get_policies(spec['name'])
    except OSError as e:
        tap(False, 'the family %s is registered' % spec['name'], e)
        return tap.done()
    tap(fam['maxattr'] == len(set_attrs),
        'maxattr %d is the spec\'s attribute count' % fam['maxattr'],
        'spec: %d' % len(set_attrs))
    check_ops(spec, fam, pols, set_attrs)
    check_groups(spec, fam)
    check_replies(spec, fam, set_attrs)
    check_notifications(spec, fam, set_attrs, sys.argv[2])
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
