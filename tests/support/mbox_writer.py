"""A delivery agent for the mbox locking tests: appends one message to an mbox under a lock.

It writes the message a line at a time, 5 ms apart, as a delivery agent copying a large
message from a slow sender would: so a rewrite that does not wait for its lock meets a
delivery under way, and loses or cuts the message.

Usage: mbox_writer.py METHOD MBOX MESSAGE_FILE DELAY_SECONDS

METHOD is `flock`, `fcntl` or `dotlock`. It prints `ready`, waits DELAY_SECONDS, then locks and appends as a
mail delivery agent does:

- `dotlock`: creates MBOX.lock with O_CREAT | O_EXCL (retrying while it exists), then opens
  the mbox, appends and removes the lock file (procmail, Postfix `local` with `dotlock`);
- `flock` / `fcntl`: opens the mbox, waits for the kernel lock (`fcntl.flock(LOCK_EX)` or
  `fcntl.lockf(LOCK_EX)`, a POSIX record lock over the whole file), then checks that the path
  still names the file it opened and opens it again if not, as Dovecot's
  `mbox_file_open_latest` does, and appends.
"""

import fcntl
import os
import sys
import time

method, mbox, message_file, delay = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
with open(message_file, "rb") as f:
    message = f.read()
# Started: the test starts the rewrite now, and the delivery begins DELAY_SECONDS later.
print("ready", flush=True)
time.sleep(delay)


def append(f):
    for line in message.splitlines(keepends=True):
        f.write(line)
        f.flush()
        time.sleep(0.005)
    os.fsync(f.fileno())


if method == "dotlock":
    lock = mbox + ".lock"
    while True:
        try:
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            break
        except FileExistsError:
            time.sleep(0.005)
    os.close(fd)
    with open(mbox, "ab") as f:
        append(f)
    os.unlink(lock)
else:
    while True:
        f = open(mbox, "ab")
        if method == "flock":
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        else:
            fcntl.lockf(f.fileno(), fcntl.LOCK_EX)
        st = os.fstat(f.fileno())
        try:
            now = os.stat(mbox)
        except FileNotFoundError:
            now = None
        if now is not None and (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
            break
        f.close()
    append(f)
    f.close()
