//! Prints what one URL record costs: `size_of::<UrlRecord>()` and the heap allocations that
//! `analyze` makes per URL record over a message of 10,000 relative links (counted by a
//! counting global allocator; the analysis of the same message without its links is
//! subtracted), and how many of those the resolver makes.
//!
//! Usage: cargo run --release --example record_cost
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator, only counting calls.
#[allow(unsafe_code)] // counting allocations takes a `GlobalAlloc`, an unsafe trait
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn message(links: usize) -> Vec<u8> {
    let mut raw = b"Content-Base: http://example.com/dir/\nContent-Type: text/html\n\n".to_vec();
    for n in 0..links {
        raw.extend_from_slice(format!("<a href=\"p{n}.html\">x</a> ").as_bytes());
    }
    raw
}

fn allocations(raw: &[u8]) -> (usize, usize) {
    let options = mimebase::Options::new();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let report = mimebase::analyze(raw, &options);
    let count = ALLOCATIONS.load(Ordering::Relaxed) - before;
    (count, report.urls.len())
}

fn main() {
    let links = 10_000;
    let (empty, base_urls) = allocations(&message(0));
    let (full, urls) = allocations(&message(links));
    println!(
        "size_of::<UrlRecord>() = {} bytes",
        std::mem::size_of::<mimebase::UrlRecord>()
    );
    println!(
        "allocations per URL record: {:.2} ({} URL records, {} allocations; {} without the links)",
        (full - empty) as f64 / (urls - base_urls) as f64,
        urls,
        full,
        empty
    );
    // What the resolver makes for each of those URLs (RFC 1808, the default), counted alone.
    let references: Vec<String> = (0..links).map(|n| format!("p{n}.html")).collect();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for reference in &references {
        let _ = mimebase::Resolver::Rfc1808.resolve("http://example.com/dir/", reference);
    }
    println!(
        "of which the resolver makes: {:.2} per URL",
        (ALLOCATIONS.load(Ordering::Relaxed) - before) as f64 / links as f64
    );
}
