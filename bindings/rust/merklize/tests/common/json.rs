// SPDX-License-Identifier: Apache-2.0 OR MIT
//! A reader of the JSON the tests meet (tests/vectors, the proofs the tool prints): objects,
//! arrays, strings with the common escapes, integers, true, false, null.

use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(i128),
    Text(String),
    Array(Vec<Json>),
    Object(BTreeMap<String, Json>),
}

impl Json {
    pub fn parse(text: &str) -> Json {
        let mut reader = Reader {
            bytes: text.as_bytes(),
            at: 0,
        };
        let value = reader.value();
        reader.space();
        assert_eq!(reader.at, reader.bytes.len(), "JSON: text after the value");
        value
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(map) => map.get(key),
            _ => None,
        }
    }

    /// The member `key`, which must be there.
    pub fn at(&self, key: &str) -> &Json {
        self.get(key)
            .unwrap_or_else(|| panic!("JSON: no member {:?}", key))
    }

    pub fn text(&self) -> &str {
        match self {
            Json::Text(t) => t,
            other => panic!("JSON: {:?} is not a string", other),
        }
    }

    pub fn number(&self) -> i128 {
        match self {
            Json::Number(n) => *n,
            other => panic!("JSON: {:?} is not a number", other),
        }
    }

    pub fn items(&self) -> &[Json] {
        match self {
            Json::Array(items) => items,
            other => panic!("JSON: {:?} is not an array", other),
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn space(&mut self) {
        while self.at < self.bytes.len() && self.bytes[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> u8 {
        self.space();
        *self.bytes.get(self.at).expect("JSON: unexpected end")
    }

    fn expect(&mut self, byte: u8) {
        assert_eq!(
            self.peek(),
            byte,
            "JSON: expected {:?} at {}",
            byte as char,
            self.at
        );
        self.at += 1;
    }

    fn word(&mut self, word: &str, value: Json) -> Json {
        assert!(
            self.bytes[self.at..].starts_with(word.as_bytes()),
            "JSON: bad word at {}",
            self.at
        );
        self.at += word.len();
        value
    }

    fn value(&mut self) -> Json {
        match self.peek() {
            b'{' => {
                self.at += 1;
                let mut map = BTreeMap::new();
                if self.peek() == b'}' {
                    self.at += 1;
                    return Json::Object(map);
                }
                loop {
                    let key = self.string();
                    self.expect(b':');
                    map.insert(key, self.value());
                    if self.peek() == b',' {
                        self.at += 1;
                    } else {
                        self.expect(b'}');
                        return Json::Object(map);
                    }
                }
            }
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                if self.peek() == b']' {
                    self.at += 1;
                    return Json::Array(items);
                }
                loop {
                    items.push(self.value());
                    if self.peek() == b',' {
                        self.at += 1;
                    } else {
                        self.expect(b']');
                        return Json::Array(items);
                    }
                }
            }
            b'"' => Json::Text(self.string()),
            b't' => self.word("true", Json::Bool(true)),
            b'f' => self.word("false", Json::Bool(false)),
            b'n' => self.word("null", Json::Null),
            _ => {
                let start = self.at;
                while self.at < self.bytes.len()
                    && (self.bytes[self.at] == b'-' || self.bytes[self.at].is_ascii_digit())
                {
                    self.at += 1;
                }
                let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap();
                Json::Number(
                    text.parse()
                        .unwrap_or_else(|_| panic!("JSON: bad number at {}", start)),
                )
            }
        }
    }

    fn string(&mut self) -> String {
        self.expect(b'"');
        let mut out = Vec::new();
        loop {
            let b = *self.bytes.get(self.at).expect("JSON: unterminated string");
            self.at += 1;
            match b {
                b'"' => return String::from_utf8(out).expect("JSON: UTF-8 strings"),
                b'\\' => {
                    let e = self.bytes[self.at];
                    self.at += 1;
                    out.push(match e {
                        b'n' => b'\n',
                        b't' => b'\t',
                        b'r' => b'\r',
                        b'"' | b'\\' | b'/' => e,
                        other => panic!("JSON: escape \\{} not read here", other as char),
                    });
                }
                other => out.push(other),
            }
        }
    }
}
