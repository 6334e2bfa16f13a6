//! Passwords that a message states in its own text for the encrypted files it carries.
//!
//! A sender who encrypts an attachment and writes its password in the message ("Password:
//! 4821", "Senha do PDF: 123", "Kennwort für die Rechnung: rechnung2026") wants the reader to
//! open it, and a filter that cannot open it to pass it. So the words that phishing writes for
//! "password", in the languages it is written in, are looked for in the text a reader sees,
//! and the tokens that follow each within a short distance are the candidates to try.
//!
//! The rule, for each occurrence of a password word (ASCII and Unicode letters compared
//! case-insensitively, by their simple lowercase; the word not preceded or followed by a
//! letter or digit, so that `pin` is not found in `shopping`):
//!
//! - the text after it, up to [`WINDOW`] characters and not past the end of its line, is split
//!   into tokens at white space;
//! - each token, with the punctuation that surrounds words taken off its ends (`:`, `"`,
//!   `'`, `«`, `»`, `“`, `”`, `(`, `)`, `[`, `]`, `*`, `.`, `,`, `;`, `!`, `?`), is a candidate
//!   if it is 1 to [`MAX_LEN`] characters long;
//! - candidates are ordered: first the tokens that come right after a `:`, `=` or `-` (the
//!   way a password is written), then those with a digit in them, then the rest, each group
//!   in the order of the text; repeats are dropped.
//!
//! Trying a wrong candidate costs only the time of one try, and the caller bounds how many
//! are tried; so the rule prefers finding the password among a few words to guessing which
//! word it is.

/// The words for "password", lowercase, that phishing writes beside an encrypted file:
/// English, Portuguese, Spanish, French, German, Dutch, Italian, Romanian, Polish, Czech,
/// Slovak, Hungarian, the Nordic languages, Finnish, Turkish, Russian and Ukrainian, Greek,
/// Indonesian, Vietnamese, Chinese, Japanese and Korean.
const WORDS: &[&str] = &[
    "password",
    "passcode",
    "pass code",
    "passphrase",
    "pin",
    "pin code",
    "code",
    "senha",
    "contraseña",
    "contrasena",
    "clave",
    "mot de passe",
    "mdp",
    "passwort",
    "kennwort",
    "wachtwoord",
    "parola",
    "parolă",
    "hasło",
    "haslo",
    "heslo",
    "jelszó",
    "jelszo",
    "lösenord",
    "losenord",
    "passord",
    "adgangskode",
    "salasana",
    "şifre",
    "sifre",
    "пароль",
    "κωδικός",
    "kata sandi",
    "mật khẩu",
    "密码",
    "密碼",
    "パスワード",
    "비밀번호",
];

/// How far after a password word its password is looked for, in characters.
pub(crate) const WINDOW: usize = 48;

/// The longest candidate, in characters: longer tokens are sentences' words run together or
/// URLs, not passwords a reader types.
pub(crate) const MAX_LEN: usize = 64;

/// The candidates that `text` states, in the order they should be tried (see the module
/// docs), at most `max` of them.
pub(crate) fn stated(text: &str, max: usize) -> Vec<String> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let lower: Vec<char> = chars
        .iter()
        .map(|&(_, c)| c.to_lowercase().next().unwrap_or(c))
        .collect();
    let words: Vec<Vec<char>> = WORDS.iter().map(|w| w.chars().collect()).collect();
    // (group, order, token): group 0 after a separator, 1 with a digit, 2 the rest.
    let mut found: Vec<(u8, usize, String)> = Vec::new();
    for start in 0..lower.len() {
        let before = start.checked_sub(1).and_then(|i| lower.get(i));
        if before.is_some_and(|c| c.is_alphanumeric()) {
            continue;
        }
        let Some(word) = words
            .iter()
            .filter(|word| lower.get(start..start + word.len()) == Some(word.as_slice()))
            .filter(|word| {
                !lower
                    .get(start + word.len())
                    .is_some_and(|c| c.is_alphanumeric())
            })
            .max_by_key(|word| word.len())
        else {
            continue;
        };
        let after = start + word.len();
        let window_end = (after + WINDOW).min(chars.len());
        let end = (after..window_end)
            .find(|&i| matches!(lower.get(i), Some('\n' | '\r')))
            .unwrap_or(window_end);
        let byte = |i: usize| chars.get(i).map_or(text.len(), |&(at, _)| at);
        let Some(window) = text.get(byte(after)..byte(end)) else {
            continue;
        };
        tokens(window, &mut found);
        if found.len() >= max.saturating_mul(4).max(64) {
            break;
        }
    }
    found.sort_by_key(|(group, order, _)| (*group, *order));
    let mut candidates: Vec<String> = Vec::new();
    for (_, _, token) in found {
        if candidates.len() >= max {
            break;
        }
        if !candidates.contains(&token) {
            candidates.push(token);
        }
    }
    candidates
}

/// Adds the candidates of one window to `found`, each with its group and its order.
fn tokens(window: &str, found: &mut Vec<(u8, usize, String)>) {
    const SURROUNDING: &[char] = &[
        ':', '"', '\'', '«', '»', '“', '”', '‘', '’', '(', ')', '[', ']', '*', '.', ',', ';', '!',
        '?', '=',
    ];
    let mut after_separator = false;
    for raw in window.split_whitespace() {
        let token = raw.trim_matches(SURROUNDING);
        let separator_before = after_separator || raw.starts_with([':', '=']);
        after_separator = raw.ends_with([':', '=']) || raw == "-" || raw == "–";
        let length = token.chars().count();
        if length == 0 || length > MAX_LEN {
            continue;
        }
        let group = if separator_before {
            0
        } else if token.chars().any(|c| c.is_ascii_digit()) {
            1
        } else {
            2
        };
        found.push((group, found.len(), token.to_owned()));
    }
}

#[cfg(test)]
mod tests {
    use super::stated;

    #[test]
    fn the_token_after_the_separator_comes_first() {
        assert_eq!(stated("Senha do PDF: 123", 16), ["123", "do", "PDF"]);
        assert_eq!(
            stated("Your invoice is attached.\nPassword: Xy7!q\nRegards", 16),
            ["Xy7!q"]
        );
        assert_eq!(stated("Le mot de passe est « 4821 ».", 16), ["4821", "est"]);
        assert_eq!(
            stated("Kennwort für die Datei = Rechnung2026", 2),
            ["Rechnung2026", "für"]
        );
    }

    #[test]
    fn words_inside_other_words_are_not_password_words() {
        assert!(stated("shopping: 1234 and pinned: 55", 16).is_empty());
        assert_eq!(stated("PIN 4421", 16), ["4421"]);
        assert_eq!(stated("CONTRASEÑA:abc", 16), ["abc"]);
        assert_eq!(stated("пароль: тест123", 16), ["тест123"]);
    }

    #[test]
    fn bounded() {
        let text = "password: a ".repeat(10_000);
        assert_eq!(stated(&text, 16), ["a", "password"]);
        let many: String = (0..100).map(|i| format!("PIN: {i}\n")).collect();
        assert_eq!(stated(&many, 16).len(), 16);
    }
}
