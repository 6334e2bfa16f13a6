//! The members of the archives a message carries, as entities of their own.
//!
//! A ZIP part ([`DocumentKind::Archive`]) is a folder of files: a reader who opens it sees
//! them, and opens each by its name, an HTML page in a browser, a PDF in a viewer, a shortcut
//! in the system. So each member becomes an entity ([`EntityKind::Member`]) right after the
//! archive's, read as a part named so would be: the rest of the analysis does not tell a
//! member from a part. A member that is itself an archive is read the same way, up to
//! [`Options::with_max_archive_depth`]. A ZIP file that is an office document (Office Open
//! XML, OpenDocument: [`office::kind`]) is not a folder to its reader, who opens it in an
//! office application: its links are read by the office room instead.
//!
//! The members' bytes go into buffers of their own ([`Walk::buffers`]), each owned by its
//! archive's entity, and count against [`Options::with_max_decoded_bytes`] as other decoded
//! bodies do, and against [`Options::with_max_file_bytes`] for each archive.

use crate::analyze::file::{archive_problem, opened_by};
use crate::analyze::passwords::{StatedPassword, stated_passwords};
use crate::archive;
use crate::document;
use crate::mime::{self, ContentType, Entity, TransferEncoding, Walk};
use crate::office;
use crate::options::Options;
use crate::report::{Diagnostic, DiagnosticKind, EntityKind, Opened};
use crate::vocab::DocumentKind;

/// What [`expand`] gives: the walk with every archive's members, and the passwords the
/// message states, when an encrypted archive asked for them.
pub(crate) struct Expanded {
    /// The walk, archives' members included.
    pub walk: Walk,
    /// The stated passwords, when they were looked for.
    pub stated: Option<Vec<StatedPassword>>,
}

/// The walk of the message with each archive's members as entities after the archive's (see
/// the module docs). A message without archives gets its walk back as it was.
pub(crate) fn expand(
    walk: Walk,
    raw: &[u8],
    options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> Expanded {
    let may_be_zip =
        |entity: &Entity| document::may_be_zip(entity, walk.bytes(raw, entity.buffer), options);
    if !walk.entities.iter().any(may_be_zip) {
        return Expanded { walk, stated: None };
    }
    let mut expansion = Expansion {
        entities: Vec::with_capacity(walk.entities.len() * 2),
        buffers: Vec::with_capacity(walk.buffers.len()),
        new_index: Vec::with_capacity(walk.entities.len()),
        decoded_budget: walk.decoded_budget,
        entity_limit: options.entity_limit(raw.len()),
        stated: None,
        raw,
        original: &walk,
        options,
        diagnostics,
    };
    for entity in &walk.entities {
        expansion.push_with_members(entity.clone());
    }
    let Expansion {
        mut entities,
        buffers: member_buffers,
        decoded_budget,
        stated,
        new_index,
        ..
    } = expansion;
    // The buffers of the split keep their numbers; their owners move.
    let mut buffers: Vec<(usize, Vec<u8>)> = walk
        .buffers
        .into_iter()
        .map(|(owner, bytes)| (new_index.get(owner).copied().unwrap_or(owner), bytes))
        .collect();
    let first_member_buffer = buffers.len();
    for entity in &mut entities {
        if entity.kind == EntityKind::Member {
            entity.buffer += first_member_buffer;
        }
    }
    buffers.extend(member_buffers);
    Expanded {
        walk: Walk {
            entities,
            buffers,
            decoded_budget,
        },
        stated,
    }
}

/// The work of [`expand`].
struct Expansion<'a> {
    /// The new entity list.
    entities: Vec<Entity>,
    /// The members' buffers, numbered from 1 among themselves (renumbered after the split's
    /// buffers at the end), each with the new index of its archive.
    buffers: Vec<(usize, Vec<u8>)>,
    /// For each entity of the split, its new index.
    new_index: Vec<usize>,
    /// What is left of [`Options::with_max_decoded_bytes`].
    decoded_budget: usize,
    /// [`Options::entity_limit`] for the message.
    entity_limit: usize,
    /// The passwords the message states, once looked for.
    stated: Option<Vec<StatedPassword>>,
    raw: &'a [u8],
    original: &'a Walk,
    options: &'a Options,
    diagnostics: &'a mut Vec<Diagnostic>,
}

impl Expansion<'_> {
    /// Pushes `entity` of the split, and after it the members of the archives it holds.
    fn push_with_members(&mut self, mut entity: Entity) {
        let old_parent = entity.parent;
        entity.parent = old_parent.and_then(|p| self.new_index.get(p).copied());
        self.new_index.push(self.entities.len());
        // (entity, how many archives enclose it), last to be pushed first.
        let mut stack = vec![(entity, 0usize)];
        while let Some((mut entity, depth)) = stack.pop() {
            let index = self.entities.len();
            let members = self.members_of(&mut entity, depth);
            self.entities.push(entity);
            for member in members.into_iter().rev() {
                let mut member = member;
                member.parent = Some(index);
                stack.push((member, depth + 1));
            }
        }
    }

    /// The member entities of `entity` when it is an archive to read (its buffers added to
    /// the expansion's, numbered among the members' own); the entity's container kind and how
    /// it was opened are set on it.
    fn members_of(&mut self, entity: &mut Entity, depth: usize) -> Vec<Entity> {
        let bytes = self.bytes_of(entity);
        if !document::may_be_zip(entity, bytes, self.options) {
            return Vec::new();
        }
        let mut ignored = Vec::new();
        let body = mime::decoded_body(bytes, entity, &mut ignored).into_owned();
        if office::kind(&body).is_some() {
            entity.container = Some(DocumentKind::Office);
            return Vec::new();
        }
        entity.container = Some(DocumentKind::Archive);
        if depth >= self.options.max_archive_depth() {
            self.diagnose(
                entity,
                DiagnosticKind::FileLimit,
                format!(
                    "archives nest deeper than {} levels; the members of this one are not read (--max-archive-depth raises the limit)",
                    self.options.max_archive_depth()
                ),
            );
            return Vec::new();
        }
        let limits = archive::Limits {
            max_members: self.options.max_archive_members(),
            max_member_bytes: self.options.max_file_bytes().min(self.decoded_budget),
            max_total_bytes: self.options.max_file_bytes().min(self.decoded_budget),
        };
        let mut reading = archive::read(&body, &[], &limits);
        if reading.opened == archive::Opened::Closed {
            let stated = self.stated();
            if !stated.is_empty() {
                let passwords: Vec<String> = stated.iter().map(|s| s.password.clone()).collect();
                reading = archive::read(&body, &passwords, &limits);
            }
        }
        entity.opened = match reading.opened {
            archive::Opened::EmptyPassword => Some(Opened::Empty),
            archive::Opened::Password(i) => self
                .stated
                .as_deref()
                .and_then(|stated| opened_by(stated, i)),
            archive::Opened::NotEncrypted | archive::Opened::Closed => None,
        };
        for problem in &reading.problems {
            let (kind, message) = archive_problem(problem, "archive");
            self.diagnose(entity, kind, message);
        }
        let mut members = Vec::with_capacity(reading.members.len());
        for member in reading.members {
            if self.entities.len() + self.buffers.len() + members.len() >= self.entity_limit {
                self.diagnose(
                    entity,
                    DiagnosticKind::EntityLimit,
                    format!(
                        "more than {} entities; the archive's members from {} on are not read (--max-entities raises the limit)",
                        self.entity_limit, member.name
                    ),
                );
                break;
            }
            let Some(left) = self.decoded_budget.checked_sub(member.bytes.len()) else {
                self.diagnose(
                    entity,
                    DiagnosticKind::DecodedSizeLimit,
                    format!(
                        "decoding the message passed {} bytes; the archive's members from {} on are not read ({} raises the limit)",
                        self.options.max_decoded_bytes(),
                        member.name,
                        self.options.decoded_limit_option()
                    ),
                );
                break;
            };
            self.decoded_budget = left;
            let length = member.bytes.len();
            let base_name = member.name.rsplit('/').next().unwrap_or(&member.name);
            let content_type = ContentType {
                media_type: "application".to_owned(),
                subtype: "octet-stream".to_owned(),
                params: vec![("name".to_owned(), base_name.to_owned())],
            };
            members.push(Entity {
                part: entity.part.member(&member.name),
                // Numbered among the members' buffers for now (see `expand`).
                buffer: self.buffers.len() + 1,
                kind: EntityKind::Member,
                parent: None,
                header: 0..0,
                body: 0..length,
                fields: Vec::new(),
                dropped_fields: 0,
                content_type,
                transfer_encoding: TransferEncoding::Identity,
                container: None,
                opened: None,
            });
            // The owner is fixed once the archive's index is known: the caller pushes the
            // archive next, at the current end of the list.
            self.buffers.push((self.entities.len(), member.bytes));
        }
        members
    }

    /// The bytes the ranges of `entity` index: the raw message, a split's buffer, or a
    /// member's buffer of this expansion.
    fn bytes_of(&self, entity: &Entity) -> &[u8] {
        if entity.kind == EntityKind::Member {
            return entity
                .buffer
                .checked_sub(1)
                .and_then(|i| self.buffers.get(i))
                .map_or(&[][..], |(_, bytes)| bytes);
        }
        self.original.bytes(self.raw, entity.buffer)
    }

    /// The passwords the message states, looked for the first time they are asked for.
    fn stated(&mut self) -> &[StatedPassword] {
        let (original, raw, options) = (self.original, self.raw, self.options);
        self.stated
            .get_or_insert_with(|| stated_passwords(original, raw, options))
    }

    fn diagnose(&mut self, entity: &Entity, kind: DiagnosticKind, message: String) {
        self.diagnostics.push(Diagnostic {
            part: Some(entity.part.clone()),
            kind,
            message,
        });
    }
}
