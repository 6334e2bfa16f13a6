//! Writes never lose or damage mail: `rewrite -o` writes through a file that is not regular,
//! `rewrite --in-place` refuses one, a replaced file keeps its owner, group, mode and
//! extended attributes, `extract` leaves nothing behind when the disk is full, and a signal
//! leaves no temporary file.
//!
//! The expected behaviour is that of the shell's `>` (writing through a device or a FIFO,
//! keeping an existing file's owner and mode) and of GNU sed 4.9's `-i` (refusing a device:
//! "couldn't edit X: not a regular file", exit 4 where mimebase exits 2; keeping owner, group
//! and mode; replacing the directory entry, so that a hard link keeps the old content), each
//! checked by hand with bash 5.2.15 and sed 4.9 on Linux. sed opens a FIFO before it refuses
//! it, and so waits for a writer; mimebase refuses it unopened. ACLs are compared as getfacl(1) (acl 2.3) prints
//! them.
//!
//! Tests that make a device node, change a file's owner or mount a file system need root;
//! run as another user, they print why they were skipped and pass.

use std::fs;
use std::io::Read as _;
use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::support::cli::{MIMEBASE, command, mimebase, stderr};
use crate::support::workdir;

/// A message with one relative link, and what `rewrite` makes of it.
const MESSAGE: &[u8] = b"Base: http://b/\nContent-Type: text/html\n\n<a href=\"g\">\n";
const REWRITTEN: &[u8] = b"Base: http://b/\nContent-Type: text/html\n\n<a href=\"http://b/g\">\n";

/// The owner and group these tests give files: `nobody` and `nogroup` on Debian, by number so
/// that no user database is needed.
const NOBODY: u32 = 65534;

/// Whether the tests run as root; prints why `test` is skipped when not.
fn root_or_skip(test: &str) -> bool {
    let uid = Command::new("id").arg("-u").output();
    let is_root = uid.is_ok_and(|out| out.stdout == b"0\n");
    if !is_root {
        crate::support::skipped(&format!("{test}: needs root (mknod, chown or mount)"));
    }
    is_root
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Opens `fifo` for writing without blocking, and closes it: a reader waiting for a writer
/// then reads its end (with no reader, the open fails, and nothing happens).
fn unblock_reader(fifo: &Path) {
    use std::os::unix::fs::OpenOptionsExt as _;
    const O_NONBLOCK: i32 = 0o4000;
    let _ = fs::OpenOptions::new()
        .write(true)
        .custom_flags(O_NONBLOCK)
        .open(fifo);
}

/// Waits up to 20 seconds for `child`; should it still run (blocked opening the FIFO
/// `fifo`, the failure this guards against), the FIFO is opened for writing without
/// blocking and closed, so that the child reads its end, and the test fails.
fn wait_or_unblock(mut child: Child, fifo: &Path) -> (ExitStatus, String) {
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            unblock_reader(fifo);
            let _ = child.wait();
            panic!("mimebase opened the FIFO {}", fifo.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status, err)
}

// ---- special files: -o writes through, --in-place refuses ----

#[test]
fn rewrite_to_a_fifo_writes_through_it() {
    let dir = workdir("o-fifo");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    // Held open for reading and writing (which never blocks on Linux) until mimebase is done:
    // neither side waits for the other, and closing it ends the reader, whether or not
    // mimebase wrote through the FIFO.
    let keeper = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&fifo)
        .unwrap();
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read(fifo).unwrap())
    };
    let output = mimebase(&["rewrite", "-o", fifo.to_str().unwrap()], MESSAGE);
    drop(keeper);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(reader.join().unwrap(), REWRITTEN);
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(names(&dir), ["fifo"], "no temporary file left");
}

#[test]
fn rewrite_to_a_character_device_writes_through_it() {
    if !root_or_skip("rewrite_to_a_character_device_writes_through_it") {
        return;
    }
    // A device node of its own with the numbers of /dev/null (1, 3), which is never touched.
    let dir = workdir("o-device");
    let null = dir.join("null");
    let made = Command::new("mknod")
        .args([null.to_str().unwrap(), "c", "1", "3"])
        .status()
        .unwrap();
    assert!(made.success());
    let output = mimebase(&["rewrite", "-o", null.to_str().unwrap()], MESSAGE);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let metadata = fs::symlink_metadata(&null).unwrap();
    assert!(metadata.file_type().is_char_device(), "{metadata:?}");
    assert_eq!(metadata.rdev(), fs::metadata("/dev/null").unwrap().rdev());
    assert_eq!(names(&dir), ["null"]);

    // --in-place refuses it, as sed -i does.
    let output = mimebase(&["rewrite", "--in-place", null.to_str().unwrap()], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("a character device"),
        "{}",
        stderr(&output)
    );
    assert!(
        fs::symlink_metadata(&null)
            .unwrap()
            .file_type()
            .is_char_device()
    );
    assert_eq!(names(&dir), ["null"]);
}

#[test]
fn rewrite_in_place_refuses_a_fifo_without_opening_it() {
    let dir = workdir("in-place-fifo");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    // Through a symbolic link too: the file it names is what would be replaced.
    std::os::unix::fs::symlink("fifo", dir.join("link")).unwrap();
    for name in ["fifo", "link"] {
        let child = command(MIMEBASE, &["rewrite", "--in-place", name])
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (status, err) = wait_or_unblock(child, &fifo);
        assert_eq!(status.code(), Some(2), "{err}");
        assert_eq!(
            err,
            format!(
                "mimebase: {name}: a FIFO: --in-place replaces only a regular file; nothing \
                 written (use -o to write through it)\n"
            )
        );
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(names(&dir), ["fifo", "link"]);
    }
}

// ---- owner, group, mode, extended attributes ----

#[test]
fn rewrite_in_place_keeps_owner_group_mode_and_extended_attributes() {
    if !root_or_skip("rewrite_in_place_keeps_owner_group_mode_and_extended_attributes") {
        return;
    }
    let dir = workdir("in-place-owner");
    let file = dir.join("m.eml");
    fs::write(&file, MESSAGE).unwrap();
    std::os::unix::fs::chown(&file, Some(NOBODY), Some(NOBODY)).unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
    let xattrs = xattr::set(&file, "user.mimebase-test", b"kept").is_ok();
    if !xattrs {
        eprintln!("extended attributes not checked: the file system has no user attributes");
    }
    // A POSIX ACL (an extended attribute on Linux), as getfacl(1) prints it.
    let acl = |file: &Path| {
        Command::new("getfacl")
            .args(["-c", "-n", file.to_str().unwrap()])
            .output()
            .map(|out| out.stdout)
    };
    let acls = Command::new("setfacl")
        .args(["-m", "u:65534:rw", file.to_str().unwrap()])
        .status()
        .is_ok_and(|status| status.success());
    let before = if acls {
        acl(&file).unwrap()
    } else {
        eprintln!("ACLs not checked: setfacl (the acl package) is missing or failed");
        Vec::new()
    };
    // A hard link keeps the old content: the directory entry is replaced, as sed -i does.
    fs::hard_link(&file, dir.join("hard-link.eml")).unwrap();

    let output = mimebase(&["rewrite", "--in-place", file.to_str().unwrap()], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(fs::read(&file).unwrap(), REWRITTEN);
    let metadata = fs::metadata(&file).unwrap();
    assert_eq!((metadata.uid(), metadata.gid()), (NOBODY, NOBODY));
    // With the ACL, the group bits show its mask (rw-), as ls -l shows them.
    let mode = if acls { 0o660 } else { 0o600 };
    assert_eq!(metadata.mode() & 0o7777, mode);
    if xattrs {
        assert_eq!(
            xattr::get(&file, "user.mimebase-test").unwrap().as_deref(),
            Some(&b"kept"[..])
        );
    }
    if acls {
        let after = acl(&file).unwrap();
        assert!(String::from_utf8_lossy(&after).contains("user:65534:rw-"));
        assert_eq!(after, before);
    }
    assert_eq!(fs::read(dir.join("hard-link.eml")).unwrap(), MESSAGE);
    assert_eq!(names(&dir), ["hard-link.eml", "m.eml"]);
}

#[test]
fn rewrite_to_an_existing_file_keeps_its_owner_and_mode() {
    if !root_or_skip("rewrite_to_an_existing_file_keeps_its_owner_and_mode") {
        return;
    }
    let dir = workdir("o-owner");
    let out = dir.join("out.eml");
    fs::write(&out, b"old\n").unwrap();
    std::os::unix::fs::chown(&out, Some(NOBODY), Some(NOBODY)).unwrap();
    fs::set_permissions(&out, fs::Permissions::from_mode(0o640)).unwrap();
    let output = mimebase(&["rewrite", "-o", out.to_str().unwrap()], MESSAGE);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(fs::read(&out).unwrap(), REWRITTEN);
    let metadata = fs::metadata(&out).unwrap();
    assert_eq!((metadata.uid(), metadata.gid()), (NOBODY, NOBODY));
    assert_eq!(metadata.mode() & 0o7777, 0o640);
    // A new file gets 0666 less the umask and belongs to who runs the command.
    let new = dir.join("new.eml");
    let output = mimebase(&["rewrite", "-o", new.to_str().unwrap()], MESSAGE);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(fs::metadata(&new).unwrap().uid(), 0);
    assert_eq!(names(&dir), ["new.eml", "out.eml"]);
}

// ---- size limit ----

#[test]
fn rewrite_checks_a_regular_file_against_the_limit_before_reading_it() {
    let dir = workdir("limit");
    let big = dir.join("big.eml");
    let mut message = MESSAGE.to_vec();
    message.resize(5000, b'x');
    fs::write(&big, &message).unwrap();
    let output = mimebase(
        &[
            "rewrite",
            "--max-message-bytes",
            "2K",
            big.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(1));
    // The size is the file's, known without reading it (a stream is named "more than").
    assert!(
        stderr(&output)
            .contains("the message has 5000 bytes, more than the size limit of 2048 bytes"),
        "{}",
        stderr(&output)
    );
    assert!(output.stdout.is_empty());

    // An mbox larger than the limit is still read, one message at a time.
    let mut mbox = Vec::new();
    for _ in 0..40 {
        mbox.extend_from_slice(b"From a@b Sat Jan  1 00:00:00 2000\n");
        mbox.extend_from_slice(MESSAGE);
        mbox.push(b'\n');
    }
    let file = dir.join("box.mbox");
    fs::write(&file, &mbox).unwrap();
    let output = mimebase(
        &[
            "rewrite",
            "--max-message-bytes",
            "2K",
            "--in-place",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let rewritten = fs::read(&file).unwrap();
    assert_eq!(
        rewritten.len(),
        mbox.len() + 40 * 9,
        "each `g` became `http://b/g`"
    );
}

// ---- extract: a full disk ----

/// A tmpfs of 64 KiB mounted at `dir`, unmounted when dropped.
struct SmallDisk(PathBuf);

impl SmallDisk {
    fn mount(dir: &Path, test: &str) -> Option<Self> {
        let mounted = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                "size=64k",
                "tmpfs",
                dir.to_str().unwrap(),
            ])
            .status();
        if mounted.is_ok_and(|status| status.success()) {
            Some(SmallDisk(dir.to_path_buf()))
        } else {
            crate::support::skipped(&format!("{test}: cannot mount a tmpfs"));
            None
        }
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// A message of an HTML page and an image of `size` bytes (base64 in the message).
fn with_image(size: usize) -> Vec<u8> {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let image: Vec<u8> = (0..size)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    use base64::Engine as _;
    let encoded = base64::engine::general_purpose::STANDARD.encode(&image);
    let mut message = b"Content-Type: multipart/related; boundary=b\n\n--b\n\
Content-Type: text/html\n\n<img src=\"cid:x\">\n--b\nContent-Type: image/png\n\
Content-ID: <x>\nContent-Transfer-Encoding: base64\n\n"
        .to_vec();
    for line in encoded.as_bytes().chunks(76) {
        message.extend_from_slice(line);
        message.push(b'\n');
    }
    message.extend_from_slice(b"--b--\n");
    message
}

#[test]
fn extract_on_a_full_disk_removes_what_it_wrote_and_exits_2() {
    let test = "extract_on_a_full_disk_removes_what_it_wrote_and_exits_2";
    if !root_or_skip(test) {
        return;
    }
    let dir = workdir("full-disk");
    let disk = dir.join("disk");
    fs::create_dir(&disk).unwrap();
    let Some(_mounted) = SmallDisk::mount(&disk, test) else {
        return;
    };
    fs::write(disk.join("kept.txt"), b"not this run's").unwrap();
    // An mbox: the first message fits (and is written), the second does not.
    let mut mbox = b"From a@b Sat Jan  1 00:00:00 2000\n".to_vec();
    mbox.extend_from_slice(&with_image(1000));
    mbox.extend_from_slice(b"\nFrom a@b Sat Jan  1 00:00:00 2000\n");
    mbox.extend_from_slice(&with_image(200_000));
    let input = dir.join("two.mbox");
    fs::write(&input, &mbox).unwrap();
    let out = disk.join("out");
    let output = mimebase(
        &[
            "extract",
            input.to_str().unwrap(),
            "--dir",
            out.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let err = stderr(&output);
    assert!(
        err.starts_with(&format!("mimebase: writing {}/", out.display()))
            && err.contains("No space left on device")
            && err.contains("removed what this run had written"),
        "{err}"
    );
    // The first message's directory, written before the failure, is gone too; the file
    // that was there before stays.
    assert_eq!(names(&disk), ["kept.txt"]);
    assert_eq!(fs::read(disk.join("kept.txt")).unwrap(), b"not this run's");
}

// ---- signals ----

/// An mbox of `messages` messages, each an HTML page with 200 relative links.
fn links_mbox(messages: usize) -> Vec<u8> {
    let mut page = String::from("Base: http://b/\nContent-Type: text/html\n\n");
    for i in 0..200 {
        page.push_str(&format!("<a href=\"page/{i}.html\">link {i}</a>\n"));
    }
    let mut mbox = Vec::new();
    for _ in 0..messages {
        mbox.extend_from_slice(b"From a@b Sat Jan  1 00:00:00 2000\n");
        mbox.extend_from_slice(page.as_bytes());
        mbox.push(b'\n');
    }
    mbox
}

/// Whether `dir` holds a temporary file of mimebase.
fn has_temporary(dir: &Path) -> bool {
    names(dir)
        .iter()
        .any(|name| name.starts_with(".mimebase-") && name.ends_with(".tmp"))
}

#[test]
fn a_signal_during_rewrite_in_place_leaves_no_temporary_file() {
    for (signal, name, number) in [("TERM", "term", 15), ("INT", "int", 2)] {
        let dir = workdir(&format!("signal-{name}"));
        let file = dir.join("box.mbox");
        // The rewrite must still run when the signal comes: a larger mbox each time it
        // finished first.
        let mut messages = 2_000;
        let caught = loop {
            let mbox = links_mbox(messages);
            fs::write(&file, &mbox).unwrap();
            let mut child = command(MIMEBASE, &["rewrite", "--in-place", "box.mbox"])
                .current_dir(&dir)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            // The temporary file exists from the first message written to the rename.
            let deadline = Instant::now() + Duration::from_secs(60);
            while !has_temporary(&dir)
                && child.try_wait().unwrap().is_none()
                && Instant::now() < deadline
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            let running = child.try_wait().unwrap().is_none();
            if running {
                let sent = Command::new("kill")
                    .args([&format!("-{signal}"), &child.id().to_string()])
                    .status()
                    .unwrap();
                assert!(sent.success());
            }
            let status = child.wait().unwrap();
            if running {
                break (status, mbox);
            }
            assert!(messages < 100_000, "the rewrite always finished first");
            messages *= 4;
        };
        let (status, mbox) = caught;
        use std::os::unix::process::ExitStatusExt as _;
        // Killed by the signal after removing its file: a shell shows 128 + the number.
        assert_eq!(status.signal(), Some(number), "SIG{signal}: {status:?}");
        assert!(!has_temporary(&dir), "SIG{signal}: {:?}", names(&dir));
        assert_eq!(names(&dir), ["box.mbox"]);
        // The mbox is the old one whole (or, had the rename come first, the new one whole).
        let now = fs::read(&file).unwrap();
        assert!(
            now == mbox || now.len() == mbox.len() + 200 * 9 * (mbox.len() / links_mbox(1).len()),
            "SIG{signal}: the mbox is neither the old one nor the new one"
        );
    }
}

#[test]
fn rewrite_to_a_symbolic_link_replaces_the_file_it_names() {
    let dir = workdir("o-link");
    let file = dir.join("out.eml");
    fs::write(&file, b"old\n").unwrap();
    let link = dir.join("link.eml");
    std::os::unix::fs::symlink("out.eml", &link).unwrap();
    let output = mimebase(&["rewrite", "-o", link.to_str().unwrap()], MESSAGE);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // As `>` writes through the link.
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read(&file).unwrap(), REWRITTEN);
    assert_eq!(names(&dir), ["link.eml", "out.eml"]);
}

#[test]
fn rewrite_in_place_refuses_to_give_someone_else_s_file_a_new_owner() {
    let test = "rewrite_in_place_refuses_to_give_someone_else_s_file_a_new_owner";
    if !root_or_skip(test) {
        return;
    }
    let has_setpriv = Command::new("setpriv").arg("--version").output();
    if !has_setpriv.is_ok_and(|out| out.status.success()) {
        crate::support::skipped(&format!("{test}: setpriv (util-linux) is not available"));
        return;
    }
    // A directory where nobody may create files, and a message there owned by root that
    // nobody may write: nobody could replace it, but the new file would be nobody's.
    let dir = workdir("in-place-other-owner");
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).unwrap();
    for ancestor in dir.ancestors().skip(1) {
        let mode = fs::metadata(ancestor).unwrap().mode();
        if mode & 0o001 == 0 {
            eprintln!(
                "skipped {test}: {} is closed to other users",
                ancestor.display()
            );
            return;
        }
    }
    let file = dir.join("m.eml");
    fs::write(&file, MESSAGE).unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o666)).unwrap();
    let nobody = NOBODY.to_string();
    let output = Command::new("setpriv")
        .args([
            "--reuid",
            &nobody,
            "--regid",
            &nobody,
            "--clear-groups",
            MIMEBASE,
        ])
        .args(["rewrite", "--in-place", file.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.starts_with(&format!("mimebase: writing {}: ", file.display()))
            && err.contains("owner and group of the old one (uid 0, gid 0)"),
        "{err}"
    );
    assert_eq!(fs::read(&file).unwrap(), MESSAGE);
    assert_eq!(fs::metadata(&file).unwrap().uid(), 0);
    assert_eq!(names(&dir), ["m.eml"]);
}

#[test]
fn a_signal_during_extract_removes_what_it_wrote() {
    let dir = workdir("signal-extract");
    let input = dir.join("many.mbox");
    let out = dir.join("out");
    let mut messages = 500;
    let status = loop {
        let mut mbox = Vec::new();
        for _ in 0..messages {
            mbox.extend_from_slice(b"From a@b Sat Jan  1 00:00:00 2000\n");
            mbox.extend_from_slice(&with_image(2000));
            mbox.push(b'\n');
        }
        fs::write(&input, &mbox).unwrap();
        let mut child = command(MIMEBASE, &["extract", "many.mbox", "--dir", "out"])
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Once the first message's directory is there, the run has written something.
        let deadline = Instant::now() + Duration::from_secs(60);
        while fs::read_dir(&out).map_or(true, |mut entries| entries.next().is_none())
            && child.try_wait().unwrap().is_none()
            && Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        let running = child.try_wait().unwrap().is_none();
        if running {
            let sent = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status()
                .unwrap();
            assert!(sent.success());
        }
        let status = child.wait().unwrap();
        if running {
            break status;
        }
        assert!(messages < 50_000, "extract always finished first");
        let _ = fs::remove_dir_all(&out);
        messages *= 4;
    };
    use std::os::unix::process::ExitStatusExt as _;
    assert_eq!(status.signal(), Some(15), "{status:?}");
    // OUT was made by this run: it goes too, with every file and directory in it.
    assert!(!out.exists(), "{:?}", crate::support::files_under(&out));
    assert_eq!(names(&dir), ["many.mbox"]);
}
