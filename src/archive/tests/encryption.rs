//! Encrypted archives: ZipCrypto and AES, right, wrong and impostor passwords.

use std::io::{Cursor, Write};
use std::process::Command;

use pretty_assertions::assert_eq;
use zip::{AesMode, ZipWriter};

use super::{PASSWORD, deflated, has_program, kinds, names, written, zipcrypto};
use crate::archive::{Limits, Opened, ProblemKind, read};

#[test]
fn zipcrypto_opens_with_the_right_password() {
    for method in [0, 8] {
        let bytes = zipcrypto(
            &[("a.txt", b"secret text"), ("b.txt", b"more")],
            method,
            PASSWORD.as_bytes(),
        );
        let passwords = vec!["nope".to_owned(), PASSWORD.to_owned()];
        let reading = read(&bytes, &passwords, &Limits::default());
        assert_eq!(reading.opened, Opened::Password(1), "{method:?}");
        assert_eq!(names(&reading), ["a.txt", "b.txt"]);
        assert_eq!(reading.members[0].bytes, b"secret text");
        assert_eq!(reading.problems, Vec::new());
    }
}

#[test]
fn aes_opens_with_the_right_password() {
    for mode in [AesMode::Aes128, AesMode::Aes256] {
        let options = deflated().with_aes_encryption(mode, PASSWORD);
        let bytes = written(&[("a.txt", b"secret text")], options);
        let passwords = vec!["nope".to_owned(), PASSWORD.to_owned()];
        let reading = read(&bytes, &passwords, &Limits::default());
        assert_eq!(reading.opened, Opened::Password(1), "{mode:?}");
        assert_eq!(reading.members[0].bytes, b"secret text");
    }
}

#[test]
fn wrong_passwords_leave_the_archive_closed() {
    let members: [(&str, &[u8]); 2] = [("a.txt", b"secret"), ("b.txt", b"secret")];
    for bytes in [
        zipcrypto(&members, 8, PASSWORD.as_bytes()),
        written(
            &members,
            deflated().with_aes_encryption(AesMode::Aes256, PASSWORD),
        ),
    ] {
        let passwords = vec!["nope".to_owned(), "Secret123".to_owned()];
        let reading = read(&bytes, &passwords, &Limits::default());
        assert_eq!(reading.opened, Opened::Closed);
        assert_eq!(reading.members, Vec::new());
        assert_eq!(
            kinds(&reading),
            [ProblemKind::Encrypted, ProblemKind::Encrypted]
        );
        assert_eq!(reading.problems[1].member.as_deref(), Some("b.txt"));
    }
}

#[test]
fn empty_password_and_mixed_archives() {
    let bytes = zipcrypto(&[("a", b"x")], 8, b"");
    assert_eq!(
        read(&bytes, &[], &Limits::default()).opened,
        Opened::EmptyPassword
    );
    // One plain member, one encrypted: the plain one is read without a password.
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    writer.start_file("plain", deflated()).unwrap();
    writer.write_all(b"p").unwrap();
    writer
        .start_file(
            "locked",
            deflated().with_aes_encryption(AesMode::Aes256, PASSWORD),
        )
        .unwrap();
    writer.write_all(b"l").unwrap();
    let bytes = writer.finish().unwrap().into_inner();
    let reading = read(&bytes, &[], &Limits::default());
    assert_eq!(names(&reading), ["plain"]);
    assert_eq!(reading.opened, Opened::Closed);
    assert_eq!(kinds(&reading), [ProblemKind::Encrypted]);
}

/// One wrong password in 256 passes ZipCrypto's check byte; the CRC-32 of what it decrypts
/// then fails, and the right password, tried next, is the one reported.
#[test]
fn zipcrypto_false_positive_is_caught_by_the_crc() {
    for method in [0, 8] {
        let bytes = zipcrypto(
            &[("a.txt", b"the secret text, long enough to tell")],
            method,
            PASSWORD.as_bytes(),
        );
        let mut archive = zip::ZipArchive::new(Cursor::new(&bytes[..])).unwrap();
        let impostor = (0..100_000)
            .map(|i| format!("wrong{i}"))
            .find(|candidate| archive.by_index_decrypt(0, candidate.as_bytes()).is_ok())
            .unwrap();
        let passwords = vec![impostor.clone(), PASSWORD.to_owned()];
        let reading = read(&bytes, &passwords, &Limits::default());
        assert_eq!(reading.opened, Opened::Password(1), "{method:?} {impostor}");
        assert_eq!(
            reading.members[0].bytes,
            b"the secret text, long enough to tell"
        );
        // With the impostor alone the member stays closed, and the problem says why.
        let reading = read(&bytes, &passwords[..1], &Limits::default());
        assert_eq!(reading.opened, Opened::Closed);
        assert!(
            reading.problems[0].message.contains("did not verify"),
            "{:?}",
            reading.problems
        );
    }
}

#[test]
fn archives_from_info_zip_and_pyzipper() {
    let test = "archives_from_info_zip_and_pyzipper";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("note.txt"), b"a note\n").unwrap();
    if has_program(test, "zip", &["-v"]) {
        let status = Command::new("zip")
            .current_dir(dir.path())
            .args(["-q", "-P", PASSWORD, "zc.zip", "note.txt"])
            .status()
            .unwrap();
        assert!(status.success());
        let bytes = std::fs::read(dir.path().join("zc.zip")).unwrap();
        let reading = read(&bytes, &[PASSWORD.to_owned()], &Limits::default());
        assert_eq!(reading.opened, Opened::Password(0));
        assert_eq!(reading.members[0].bytes, b"a note\n");
        assert_eq!(read(&bytes, &[], &Limits::default()).opened, Opened::Closed);
    }
    let script = "import pyzipper,sys\n\
        with pyzipper.AESZipFile(sys.argv[1], 'w', compression=pyzipper.ZIP_DEFLATED, \
        encryption=pyzipper.WZ_AES) as z:\n    z.setpassword(sys.argv[2].encode())\n    \
        z.writestr('note.txt', 'a note\\n')\n";
    let path = dir.path().join("aes.zip");
    match Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(&path)
        .arg(PASSWORD)
        .output()
    {
        Ok(output) if output.status.success() => {
            let bytes = std::fs::read(&path).unwrap();
            let reading = read(
                &bytes,
                &["x".to_owned(), PASSWORD.to_owned()],
                &Limits::default(),
            );
            assert_eq!(reading.opened, Opened::Password(1));
            assert_eq!(reading.members[0].bytes, b"a note\n");
        }
        _ => crate::testing::skip_missing(test, "python3 with pyzipper"),
    }
}
