// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Comments removed, and text cut into tokens: identifiers, numbers, string literals and single
//! punctuation characters (enough for merklize.h and for this crate's declarations).

/// The text without `/* */` and `//` comments (each replaced by a space).
pub fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let block = rest.find("/*");
        let line = rest.find("//");
        match (block, line) {
            (Some(b), l) if l.map_or(true, |l| b < l) => {
                out.push_str(&rest[..b]);
                out.push(' ');
                let end = rest[b + 2..]
                    .find("*/")
                    .expect("an unterminated /* comment");
                rest = &rest[b + 2 + end + 2..];
            }
            (_, Some(l)) => {
                out.push_str(&rest[..l]);
                let end = rest[l..].find('\n').map_or(rest.len(), |e| l + e);
                rest = &rest[end..];
            }
            _ => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// Tokens of text without comments.
pub fn tokens(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_alphanumeric() || c == '_' || c == '$' {
            i += 1;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if i + 1 < chars.len() && matches!((c, chars[i + 1]), ('-', '>') | (':', ':')) {
            i += 2; // `->` and `::` are one token each
        } else {
            i += 1;
        }
        out.push(chars[start..i.min(chars.len())].iter().collect());
    }
    out
}

/// `tokens` cut at each `separator` outside (), [], {} and <>.
pub fn split_top<'a>(tokens: &'a [String], separator: &str) -> Vec<&'a [String]> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, t) in tokens.iter().enumerate() {
        match t.as_str() {
            "(" | "[" | "{" | "<" => depth += 1,
            ")" | "]" | "}" | ">" => depth -= 1,
            _ => {}
        }
        if depth == 0 && t == separator {
            parts.push(&tokens[start..i]);
            start = i + 1;
        }
    }
    if start < tokens.len() {
        parts.push(&tokens[start..]);
    }
    parts
}

/// The index of the token closing the bracket opened at `open`.
pub fn closing(tokens: &[String], open: usize) -> usize {
    let (o, c) = match tokens[open].as_str() {
        "(" => ("(", ")"),
        "[" => ("[", "]"),
        "{" => ("{", "}"),
        other => panic!("`{}` opens no bracket", other),
    };
    let mut depth = 0;
    for (i, t) in tokens.iter().enumerate().skip(open) {
        if t == o {
            depth += 1;
        } else if t == c {
            depth -= 1;
            if depth == 0 {
                return i;
            }
        }
    }
    panic!("`{}` at token {} is never closed", o, open)
}
