//! Bombs and limits: every read ends quickly and holds little.

use std::time::Instant;

use pretty_assertions::assert_eq;

use super::{
    GIGABYTE_REPEATS, Raw, built, crc32, deflated, kinds, names, small_limits, written, zero_bomb,
};
use crate::archive::{Limits, ProblemKind, is_zip, read, read_with};

#[test]
fn deflate_bomb_stops_at_the_member_limit() {
    let started = Instant::now();
    let bomb = zero_bomb(GIGABYTE_REPEATS);
    let size = u32::try_from(1 + 258 * GIGABYTE_REPEATS).unwrap();
    // Declared honestly (a gigabyte) and lying (a kilobyte): neither is trusted.
    for declared in [size, 1024] {
        let bytes = built(&[
            Raw {
                name: b"bomb.bin",
                flags: 0,
                method: 8,
                crc: 0,
                data: &bomb,
                size: declared,
            },
            Raw {
                name: b"after.txt",
                flags: 0,
                method: 0,
                crc: crc32(b"ok"),
                data: b"ok",
                size: 2,
            },
        ]);
        let reading = read(&bytes, &[], &small_limits());
        assert_eq!(names(&reading), ["after.txt"], "declared {declared}");
        let problem = &reading.problems[0];
        assert_eq!(problem.member.as_deref(), Some("bomb.bin"));
        if declared == size {
            assert_eq!(problem.kind, ProblemKind::Limit);
        } else {
            // The `zip` crate stops at the declared size first.
            assert_eq!(problem.kind, ProblemKind::Broken, "{problem:?}");
        }
    }
    assert!(
        started.elapsed().as_secs() < 30,
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn many_bombs_stop_at_the_total_limit() {
    let bomb = zero_bomb(GIGABYTE_REPEATS / 64);
    let size = u32::try_from(1 + 258 * (GIGABYTE_REPEATS / 64)).unwrap();
    let names: Vec<String> = (0..50).map(|i| format!("bomb{i}")).collect();
    let members: Vec<Raw<'_>> = names
        .iter()
        .map(|name| Raw {
            name: name.as_bytes(),
            flags: 0,
            method: 8,
            crc: 0,
            data: &bomb,
            size,
        })
        .collect();
    let bytes = built(&members);
    let limits = small_limits();
    let reading = read(&bytes, &[], &limits);
    assert_eq!(reading.members, Vec::new());
    // Each bomb costs its bound plus one byte: four of a mebibyte fill four mebibytes.
    let problems = kinds(&reading);
    assert!(problems.len() <= 6, "{:?}", reading.problems);
    assert_eq!(problems.last(), Some(&ProblemKind::Limit));
    assert!(reading.problems.last().unwrap().member.is_none());
}

#[test]
fn members_past_the_count_limit_are_not_read() {
    let stored: Vec<String> = (0..30).map(|i| format!("m{i:02}")).collect();
    let members: Vec<(&str, &[u8])> = stored.iter().map(|n| (n.as_str(), &b"x"[..])).collect();
    let bytes = written(&members, deflated());
    let limits = Limits {
        max_members: 10,
        ..Limits::default()
    };
    let reading = read(&bytes, &[], &limits);
    assert_eq!(reading.members.len(), 10);
    assert_eq!(names(&reading).last().copied(), Some("m09"));
    assert_eq!(kinds(&reading), [ProblemKind::Limit]);
    // Members the caller does not want count toward no limit.
    let reading = read_with(&bytes, &[], &limits, &mut |name| name.ends_with('5'));
    assert_eq!(names(&reading), ["m05", "m15", "m25"]);
}

#[test]
fn member_of_exactly_the_limit_is_read() {
    let bytes = written(&[("a", &[7u8; 100]), ("b", &[7u8; 101])], deflated());
    let limits = Limits {
        max_member_bytes: 100,
        ..Limits::default()
    };
    let reading = read(&bytes, &[], &limits);
    assert_eq!(names(&reading), ["a"]);
    assert_eq!(kinds(&reading), [ProblemKind::Limit]);
    assert_eq!(reading.problems[0].member.as_deref(), Some("b"));
}

/// 42.zip's shape: each level holds 16 copies of the level below, the bottom a bomb. A caller
/// that recurses does so one level per call, each within the room's limits, and bounds the
/// walk itself (here: at most 40 archives); what it holds at once stays small.
#[test]
fn nested_bomb_levels_are_read_one_at_a_time() {
    let bomb = zero_bomb(GIGABYTE_REPEATS / 16);
    let size = u32::try_from(1 + 258 * (GIGABYTE_REPEATS / 16)).unwrap();
    let mut level = built(&[Raw {
        name: b"0.bin",
        flags: 0,
        method: 8,
        crc: 0,
        data: &bomb,
        size,
    }]);
    for depth in 1..=4 {
        let names: Vec<String> = (0..16).map(|i| format!("{depth}-{i}.zip")).collect();
        let members: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &level[..])).collect();
        level = written(&members, deflated());
    }
    let limits = Limits {
        max_members: 16,
        max_member_bytes: 1 << 20,
        max_total_bytes: 1 << 20,
    };
    let started = Instant::now();
    let mut stack = vec![level];
    let mut archives_read = 0;
    let mut most_held = 0;
    while let Some(bytes) = stack.pop() {
        archives_read += 1;
        if archives_read > 40 {
            break;
        }
        let reading = read(&bytes, &[], &limits);
        // The bottom level's bomb is never kept.
        assert!(
            reading
                .members
                .iter()
                .all(|m| m.bytes.len() <= limits.max_member_bytes)
        );
        stack.extend(
            reading
                .members
                .into_iter()
                .map(|m| m.bytes)
                .filter(|b| is_zip(b)),
        );
        most_held = most_held.max(stack.iter().map(Vec::len).sum::<usize>());
    }
    assert!(most_held < 8 << 20, "held {most_held} bytes");
    assert!(
        started.elapsed().as_secs() < 60,
        "took {:?}",
        started.elapsed()
    );
}

/// An archive that holds a copy of itself can only be read one level at a time: each level
/// is a fresh call, and nothing in the room follows a member into itself.
#[test]
fn self_similar_nesting_is_read_one_level_per_call() {
    // The inner bytes are the archive of the level above, so every level looks alike.
    let mut bytes = written(&[("self.zip", b"")], deflated());
    for _ in 0..3 {
        bytes = written(&[("self.zip", &bytes)], deflated());
    }
    let mut depth = 0;
    while let Some(member) = read(&bytes, &[], &Limits::default()).members.pop() {
        assert_eq!(member.name, "self.zip");
        bytes = member.bytes;
        depth += 1;
        if bytes.is_empty() {
            break;
        }
    }
    assert_eq!(depth, 4);
}
