//! Bombs and traps: each must end quickly, in bounded memory, with a problem where one is
//! due, and never panic or overflow the stack.

use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;

use super::build::{Pdf, deflate, flate_stream, object_stream, stream};
use super::{assert_problem, places, read_plain};
use crate::pdf::{Limits, ProblemKind, Reading, read};

/// How long a trap may take, even in a debug build on a slow machine.
const QUICK: Duration = Duration::from_secs(20);

/// [`read`] with `limits`, asserting that it ends within [`QUICK`].
#[track_caller]
fn read_quickly(bytes: &[u8], limits: &Limits) -> Reading {
    let start = Instant::now();
    let reading = read(bytes, &[], limits);
    assert!(start.elapsed() < QUICK, "took {:?}", start.elapsed());
    reading
}

/// A small xorshift generator, so that the random tests are the same on every run.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, bound: usize) -> usize {
        usize::try_from(self.next() % u64::try_from(bound).unwrap()).unwrap()
    }
}

/// A file with a link, text, an object stream and an outline, for mutation.
fn sample() -> Vec<u8> {
    Pdf::one_page(
        "/Outlines 10 0 R /OpenAction 8 0 R",
        "/Annots [6 0 R]",
        "See https://t.example/",
    )
    .object(6, "<< /Subtype /Link /Rect [0 0 1 1] /A 7 0 R >>")
    .object(
        20,
        object_stream(&[
            (
                7,
                "<< /S /URI /URI (https://a.example/\\(x\\)) /Next [8 0 R] >>",
            ),
            (
                8,
                "<< /S /Launch /F << /FS /URL /F <68747470733a2f2f622e6578616d706c652f> >> >>",
            ),
        ]),
    )
    .object(10, "<< /Type /Outlines /First 11 0 R >>")
    .object(
        11,
        "<< /Title (t) /Parent 10 0 R /A << /S /URI /URI (https://o.example/) >> >>",
    )
    .build()
}

#[test]
fn sample_reads_completely() {
    let reading = read_plain(&sample());
    assert!(reading.problems.is_empty(), "{:#?}", reading.problems);
    assert_eq!(reading.links.len(), 3);
}

#[test]
fn content_stream_bomb() {
    let bomb = deflate(&vec![b' '; 16 * 1024 * 1024]);
    let bytes = Pdf::one_page("", "", "x")
        .object(4, stream("/Filter /FlateDecode", &bomb))
        .build();
    // The page's content may take a 64th: 64 KiB.
    let limits = Limits {
        max_decompressed_bytes: 4 * 1024 * 1024,
        ..Limits::default()
    };
    let reading = read_quickly(&bytes, &limits);
    assert_problem(&reading, ProblemKind::Limit);
    assert!(reading.pages.is_empty());
}

#[test]
fn form_xobject_bomb_keeps_the_page_text() {
    let bomb = deflate(&vec![b' '; 16 * 1024 * 1024]);
    let bytes = Pdf::one_page("", "", "before")
        .object(
            3,
            "<< /Type /Page /Parent 2 0 R /Contents 4 0 R \
             /Resources << /Font << /F1 5 0 R >> /XObject << /B 6 0 R >> >> >>",
        )
        .object(
            4,
            stream(
                "",
                b"BT /F1 9 Tf (before) Tj ET /B Do BT /F1 9 Tf (after) Tj ET",
            ),
        )
        .object(
            6,
            stream(
                "/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Filter /FlateDecode",
                &bomb,
            ),
        )
        .build();
    let limits = Limits {
        max_decompressed_bytes: 4 * 1024 * 1024,
        ..Limits::default()
    };
    let reading = read_quickly(&bytes, &limits);
    assert_problem(&reading, ProblemKind::Limit);
    assert_eq!(reading.pages[0].text, "before\nafter\n");
}

#[test]
fn object_stream_decompression_bomb() {
    let mut content = b"6 0 7 5 ".to_vec();
    content.extend(std::iter::repeat_n(b' ', 16 * 1024 * 1024));
    let bytes = Pdf::one_page("", "/Annots [6 0 R]", "x")
        .object(20, flate_stream("/Type /ObjStm /N 2 /First 8", &content))
        .build();
    let limits = Limits {
        max_decompressed_bytes: 1024 * 1024,
        ..Limits::default()
    };
    let reading = read_quickly(&bytes, &limits);
    assert_problem(&reading, ProblemKind::Limit);
}

/// An object stream whose index names the offset of one large string many times, and
/// offsets inside a long run of digits: lopdf alone takes minutes and gigabytes on it.
fn quadratic_object_stream() -> Vec<u8> {
    let entries = 20_000;
    let mut index = String::new();
    for number in 0..entries {
        index.push_str(&format!("{} 0 ", 100 + number));
    }
    // And 2000 offsets inside a run of 100 000 digits after the string.
    let string_length = 100_000;
    for i in 0..2000 {
        index.push_str(&format!("{} {} ", 30_000 + i, string_length + 2 + i * 50));
    }
    let mut content = index.clone().into_bytes();
    content.push(b'(');
    content.extend(std::iter::repeat_n(b'a', string_length));
    content.push(b')');
    content.extend(std::iter::repeat_n(b'7', 100_000));
    flate_stream(
        &format!("/Type /ObjStm /N 22000 /First {}", index.len()),
        &content,
    )
}

#[test]
fn object_stream_quadratic_index() {
    let bytes = Pdf::one_page("", "", "x")
        .object(20, quadratic_object_stream())
        .build();
    let reading = read_quickly(&bytes, &Limits::default());
    assert!(reading.problems.is_empty(), "{:#?}", reading.problems);
}

#[test]
fn stream_length_inside_a_quadratic_object_stream() {
    // Object 4's /Length is object 21, which the cross-reference stream places in object
    // stream 20: lopdf would decode that stream to find it.
    let bytes = Pdf::new()
        .object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        .object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        .object(3, "<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>")
        .object(
            4,
            b"<< /Length 21 0 R >>\nstream\nBT ET\nendstream".as_slice(),
        )
        .object(20, quadratic_object_stream())
        .build_with_xref_stream(30, &[(21, 20, 0), (100, 20, 0), (101, 20, 1)]);
    let reading = read_quickly(&bytes, &Limits::default());
    assert!(reading.links.is_empty());
}

#[test]
fn object_limit() {
    let bytes = sample();
    let limits = Limits {
        max_objects: 3,
        ..Limits::default()
    };
    let reading = read_quickly(&bytes, &limits);
    assert_problem(&reading, ProblemKind::Limit);
    // Enough for the top-level objects, not for the object stream's.
    let limits = Limits {
        max_objects: 9,
        ..Limits::default()
    };
    let reading = read_quickly(&bytes, &limits);
    assert_problem(&reading, ProblemKind::Limit);
}

#[test]
fn reference_loops_end() {
    let bytes = Pdf::new()
        // The catalog's page tree: 2 -> [2, 10, 3]; 10 -> [2]: cycles both ways.
        .object(
            1,
            "<< /Type /Catalog /Pages 2 0 R /Outlines 11 0 R /AcroForm << /Fields [12 0 R] >> \
             /OpenAction 7 0 R /Names 15 0 R >>",
        )
        .object(2, "<< /Type /Pages /Kids [2 0 R 10 0 R 3 0 R] /Count 1 >>")
        .object(10, "<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 10 0 R] >>")
        // The page is its own parent, for resource inheritance.
        .object(
            3,
            "<< /Type /Page /Parent 3 0 R /Contents 4 0 R /Annots 3 0 R /AA << /O 7 0 R >> >>",
        )
        .object(4, stream("", b"BT /F1 12 Tf (loop) Tj ET"))
        // A /Next loop through 7 and 8.
        .object(7, "<< /S /URI /URI (https://seven.example/) /Next 8 0 R >>")
        .object(
            8,
            "<< /S /URI /URI (https://eight.example/) /Next [7 0 R 8 0 R] >>",
        )
        // An outline item that is its own sibling and child.
        .object(11, "<< /First 13 0 R >>")
        .object(13, "<< /Next 13 0 R /First 13 0 R /A 7 0 R >>")
        // A field that is its own kid.
        .object(12, "<< /Kids [12 0 R] /A 8 0 R >>")
        // References that only point at each other.
        .object(15, "16 0 R")
        .object(16, "15 0 R")
        .build();
    let reading = read_quickly(&bytes, &Limits::default());
    assert_eq!(
        places(&reading),
        [
            ("OpenAction/URI", "https://seven.example/"),
            ("OpenAction/URI", "https://eight.example/"),
        ]
    );
}

#[test]
fn cross_reference_prev_loop() {
    let original = sample();
    let start = memchr::memmem::rfind(&original, b"startxref").unwrap();
    let offset: usize = String::from_utf8_lossy(&original[start + 9..])
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let trailer = memchr::memmem::rfind(&original, b"trailer\n<<").unwrap() + 10;
    let mut looped = original[..trailer].to_vec();
    looped.extend_from_slice(format!(" /Prev {offset}").as_bytes());
    looped.extend_from_slice(&original[trailer..]);
    let reading = read_quickly(&looped, &Limits::default());
    assert_eq!(reading.links.len(), 3);
}

#[test]
fn nested_arrays_on_a_small_stack() {
    let depth = 100_000;
    let catalog = format!(
        "<< /Type /Catalog /Pages 2 0 R /Deep {}{} >>",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let dictionaries = format!(
        "<< /A {}1{} >>",
        "<< /A ".repeat(depth),
        " >>".repeat(depth)
    );
    let bytes = Pdf::new()
        .object(1, catalog)
        .object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        .object(3, "<< /Type /Page /Parent 2 0 R /Annots [<< /A << /S /URI /URI (https://deep.example/) >> >>] >>")
        .object(4, format!("({}{})", "(".repeat(depth), ")".repeat(depth)))
        .object(5, dictionaries)
        .build();
    let reading = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || read(&bytes, &[], &Limits::default()))
        .unwrap()
        .join()
        .expect("no stack overflow");
    // The catalog is too deep for lopdf, so only the object search finds the page's link.
    assert_eq!(places(&reading), [("object/URI", "https://deep.example/")]);
    assert_problem(&reading, ProblemKind::Broken);
}

#[test]
fn to_unicode_range_bomb() {
    let cmap = "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CMapName /X def\n\
        1 begincodespacerange\n<00000000> <FFFFFFFF>\nendcodespacerange\n1 beginbfrange\n\
        <00000000> <FFFFFFFF> <0041>\nendbfrange\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n";
    let bytes = Pdf::one_page("", "", "x")
        .object(
            5,
            "<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /ToUnicode 6 0 R >>",
        )
        .object(6, stream("", cmap.as_bytes()))
        .build();
    let reading = read_quickly(&bytes, &Limits::default());
    assert_problem(&reading, ProblemKind::Limit);
}

#[test]
fn truncated_files() {
    let bytes = sample();
    for length in (0..bytes.len()).step_by(13) {
        let _ = read_quickly(&bytes[..length], &Limits::default());
    }
}

#[test]
fn random_bytes_and_header_only() {
    let mut random = Random(0x9E37_79B9_7F4A_7C15);
    for length in [0, 1, 100, 10_000] {
        let bytes: Vec<u8> = (0..length)
            .map(|_| random.next().to_le_bytes()[0])
            .collect();
        let reading = read_quickly(&bytes, &Limits::default());
        assert_problem(&reading, ProblemKind::Broken);
    }
    let mut bytes = b"%PDF-1.7\n".to_vec();
    bytes.extend((0..10_000).map(|_| random.next().to_le_bytes()[0]));
    let _ = read_quickly(&bytes, &Limits::default());
    let reading = read_quickly(b"%PDF-1.7", &Limits::default());
    assert_problem(&reading, ProblemKind::Broken);
}

#[test]
fn mutations_never_escape() {
    let bytes = sample();
    let mut random = Random(42);
    let start = Instant::now();
    for _ in 0..2000 {
        let mut mutated = bytes.clone();
        for _ in 0..1 + random.below(3) {
            let at = random.below(mutated.len());
            mutated[at] = match random.below(4) {
                0 => random.next().to_le_bytes()[0],
                1 => b'(',
                2 => b'0' + u8::try_from(random.below(10)).unwrap(),
                _ => mutated[at] ^ 0x20,
            };
        }
        let reading = read(&mutated, &[], &Limits::default());
        assert!(reading.links.len() <= 3 + 2, "{:#?}", reading.links);
    }
    assert!(start.elapsed() < QUICK * 3, "took {:?}", start.elapsed());
}

#[test]
fn shared_arrays_and_dictionaries_are_walked_once() {
    // 10 000 pages share one /Annots array of 10 000 annotations, which share one /AA
    // dictionary; 10 000 actions share one /Next array naming all of them. Walking each
    // share again would take 10⁸ steps.
    let count = 10_000u32;
    let pages: String = (0..count)
        .map(|i| format!("{} 0 R ", 100_000 + i))
        .collect();
    let annotations: String = (0..count)
        .map(|i| format!("{} 0 R ", 200_000 + i))
        .collect();
    let actions: String = (0..count)
        .map(|i| format!("{} 0 R ", 300_000 + i))
        .collect();
    let mut pdf = Pdf::new()
        .object(
            1,
            "<< /Type /Catalog /Pages 2 0 R /OpenAction 300000 0 R >>",
        )
        .object(
            2,
            format!("<< /Type /Pages /Kids [{pages}] /Count {count} >>"),
        )
        .object(3, format!("[{annotations}]"))
        .object(4, "<< /E 300001 0 R /X 300002 0 R >>")
        .object(5, format!("[{actions}]"));
    for i in 0..count {
        pdf = pdf
            .object(100_000 + i, "<< /Type /Page /Parent 2 0 R /Annots 3 0 R >>")
            .object(
                200_000 + i,
                "<< /Subtype /Link /Rect [0 0 1 1] /AA 4 0 R >>",
            )
            .object(
                300_000 + i,
                format!("<< /S /URI /URI (https://{i}.example/) /Next 5 0 R >>"),
            );
    }
    let reading = read_quickly(&pdf.build(), &Limits::default());
    assert_eq!(reading.links.len(), 10_000);
    assert!(reading.problems.is_empty(), "{:#?}", reading.problems);
}

#[test]
fn cmap_check_is_linear() {
    let mut cmap = Vec::new();
    for _ in 0..30_000 {
        cmap.extend_from_slice(b"begincodespacerange <00> %endcodespacerange ");
    }
    let start = Instant::now();
    assert!(!crate::pdf::text::cmap_is_safe(&cmap));
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "took {:?}",
        start.elapsed()
    );
}
