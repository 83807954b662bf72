#!/usr/bin/env python3
"""A scripted jdb session against a VM that JDWP makes a debuggee.

Usage: jdb_session.py [--session FILE] [--only THREADS:CLASSES] JDB SOURCEPATH OUTDIR JAVA ARGS...
Starts JAVA ARGS (JDWP listening on a port it chooses, suspended), reads the
port from its output, attaches JDB (sources in SOURCEPATH) and runs the
session, waiting for each command's answer before sending the next: the
one below (tests/jvmticheck's, over Debuggee.java), or FILE's, one command
a line as `COMMAND | TEXT ITS ANSWER ENDS WITH` (`(attach)` for the answer
to attaching; `#` starts a comment), or `COMMAND | TEXT | PROMPT` when
jdb is not done once TEXT is out: after an event (a breakpoint hit, a
step completed) it makes the event's thread the current one, and after
`print` (run on a thread of its own) it restores the current frame, and
only then prints PROMPT; a command sent before may find no current
thread, or resume the thread under the restore ("Current thread isn't
suspended."). In a command, {id:NAME} is the id jdb gave thread NAME in
the last answer that listed it (`threads`): ids differ between VMs.
--only THREADS:CLASSES (comma-separated names) keeps, of the answers to
`threads` and `where all`, the lines of those threads only (and the
group headers above them), and of the answer to `classes` the classes
whose names start with one of CLASSES: what the VM itself runs (HotSpot's
system threads and hundreds of JDK classes) is left out, the program's
kept. Writes OUTDIR/vm.out, OUTDIR/vm.err
(the VM's), OUTDIR/vm.status (its exit status) and prints the transcript
with jdb's prompts removed (where they fall depends on timing; the rest
does not). Exit status 0 when every answer came, 1 when one did not in time."""
import os
import re
import select
import subprocess
import sys
import time

# (command, text its answer ends with[, the prompt after it]); None: the
# answer to attaching. After a breakpoint or a step, the prompt names the
# thread jdb made current: the next command needs it.
SESSION = [
    (None, "No frames on the current call stack"),
    ("stop at Debuggee:6", "It will be set after the class is loaded."),  # deferred
    ("run", "int product = width * height;", "main[1]"),  # resumes; the breakpoint is hit
    ("where", "[2] Debuggee.main (Debuggee.java:12)"),  # the stack
    ("locals", "Local variables:"),  # arguments, no local yet
    ("step", "String label = \"area\";", "main[1]"),
    ("locals", "product = 42"),
    ("cont", "The application exited"),
]
STEP_SECONDS = 60


def read_session(path):
    session = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        command, _, answer = line.partition(" | ")
        answer, _, prompt = answer.partition(" | ")
        command = command.strip()
        session.append((None if command == "(attach)" else command, answer, prompt))
    return session


def only(command, lines, threads, classes):
    """The lines of one answer that --only keeps (all, for other commands)."""
    named = re.compile(r"^\([\w.$]+\)\S+ +(%s)( |$)" % "|".join(map(re.escape, threads)))
    if command == "threads":
        kept, group = [], None
        for line in lines:
            if line.startswith("Group ") and line.endswith(":"):
                group = line
            elif line.startswith("(") and not named.match(line):
                continue
            elif line.startswith("(") and group:
                kept.append(group)
                group = None
            if not line.startswith("Group "):
                kept.append(line)
        return kept
    if command == "where all":
        kept, keep = [], True
        for line in lines:
            if not line.startswith("[") and line.endswith(":"):
                keep = line[:-1] in threads
            if keep:
                kept.append(line)
        return kept
    if command == "classes":
        return [line for line in lines if line.startswith("**") or " " in line or
                any(line.startswith(c) for c in classes)]
    return lines


def main():
    args = sys.argv[1:]
    session = SESSION
    threads = classes = None
    if args[:1] == ["--session"]:
        session, args = read_session(args[1]), args[2:]
    if args[:1] == ["--only"]:
        names, _, prefixes = args[1].partition(":")
        threads, classes, args = names.split(","), prefixes.split(","), args[2:]
    jdb, sourcepath, outdir, java = args[0], args[1], args[2], args[3:]
    vm_out = open(os.path.join(outdir, "vm.out"), "wb")
    vm_err = open(os.path.join(outdir, "vm.err"), "wb")
    vm = subprocess.Popen(java, stdout=subprocess.PIPE, stderr=vm_err, stdin=subprocess.DEVNULL)
    first = vm.stdout.readline()
    vm_out.write(first)
    m = re.search(rb"address: (\S+)", first)
    if not m:
        print("jdb_session: JDWP did not say where it listens: %r" % first, file=sys.stderr)
        vm.kill()
        return 1
    address = m.group(1).decode()
    if ":" not in address:
        address = "127.0.0.1:" + address
    jdb_p = subprocess.Popen([jdb, "-sourcepath", sourcepath, "-attach", address], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    got = b""
    status = 0
    starts = []  # where each answer begins in got
    for command, answer, *prompt in session:
        starts.append(len(got))
        if command is not None:
            for name in re.findall(r"\{id:([^}]*)\}", command):
                ids = re.findall(rb"\([\w.$]+\)(\S+) +" + re.escape(name.encode()) + rb"( |$)", got, re.M)
                if not ids:
                    print("jdb_session: no id for thread %r before %r" % (name, command), file=sys.stderr)
                    status = 1
                    break
                command = command.replace("{id:%s}" % name, ids[-1][0].decode())
            if status:
                break
            jdb_p.stdin.write((command + "\n").encode())
            jdb_p.stdin.flush()
        start = len(got)
        end = time.time() + STEP_SECONDS
        wanted = re.compile(re.escape(answer.encode()) + b".*" + re.escape((prompt or [""])[0].encode()), re.S)
        while not wanted.search(got, start):
            left = end - time.time()
            ready = select.select([jdb_p.stdout], [], [], max(0.0, left))[0]
            chunk = os.read(jdb_p.stdout.fileno(), 4096) if ready else b""
            if not chunk:
                print("jdb_session: no %r after %r" % (answer, command), file=sys.stderr)
                status = 1
                break
            got += chunk
        if status:
            break
    try:
        jdb_p.stdin.close()
        jdb_p.wait(timeout=STEP_SECONDS)
        got += jdb_p.stdout.read()
    except subprocess.TimeoutExpired:
        jdb_p.kill()
        status = 1
    try:
        rest, _ = vm.communicate(timeout=STEP_SECONDS)
        vm_out.write(rest)
        with open(os.path.join(outdir, "vm.status"), "w") as f:
            f.write("%d\n" % vm.returncode)
    except subprocess.TimeoutExpired:
        vm.kill()
        status = 1
    ends = starts[1:] + [len(got)]
    for (command, *_), start, end in zip(session, starts, ends):
        lines = []
        for line in got[start:end].decode(errors="replace").splitlines():
            # jdb's prompts (the current thread's name and frame, or >), also
            # one printed in the middle of an event's line ("VM Started: >
            # No frames..."): where it lands is timing.
            line = re.sub(r"(^|(?<=: ))(([A-Za-z][\w-]*\[\d+\]|>) ?)+", "", line).strip()
            if line:
                lines.append(line)
        if threads is not None:
            lines = only(command, lines, threads, classes)
        for line in lines:
            print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
