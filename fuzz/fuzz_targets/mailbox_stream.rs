//! Fuzzes the readers of `mimebase::mailbox` on any stream, compressed or not: the first
//! byte picks a compression whose magic number is put before the rest (so that the fuzzer
//! reaches each decoder's header parsing at once), and the stream is read as every command
//! reads one. No panic and no hang; every message is within the size limit, every `Source`
//! says the compression its magic number named, and the messages of an mbox come in order.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mimebase::mailbox::{Input, Message, Stream, open_stream};
use mimebase::scan::Compression;

const LIMIT: u64 = 1 << 16;

const MAGIC: [&[u8]; 5] = [
    b"",
    b"\x1f\x8b",
    b"BZh",
    b"\xfd7zXZ\x00",
    b"\x28\xb5\x2f\xfd",
];

fn check(message: &Message, compression: Option<Compression>) {
    assert_eq!(message.source.compression, compression);
    if let Input::Bytes(bytes) = &message.input {
        assert!(bytes.len() as u64 <= LIMIT);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let magic = MAGIC[usize::from(pick) % MAGIC.len()];
    let stream = [magic, rest].concat();
    let compression = Compression::sniff(&stream);
    match open_stream("f".to_owned(), &stream[..], LIMIT) {
        Stream::One(message) => {
            // A stream that could not be read as far as its first bytes knows its
            // compression only if its magic number was read.
            check(&message, compression);
        }
        Stream::Mbox(mbox) => {
            let mut last = None;
            for message in mbox {
                check(&message, compression);
                if let Some(offset) = message.source.offset {
                    assert!(last.is_none_or(|last| offset > last));
                    last = Some(offset);
                }
            }
        }
    }
});
