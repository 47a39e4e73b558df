// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Lowercase hex, as the command-line tool prints roots and nodes.

use crate::error::{Error, Result};

/// Lowercase hex of `bytes`.
pub fn encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
    out
}

/// The bytes of hex text (either case).
pub fn decode(text: &str) -> Result<Vec<u8>> {
    let digits = text.as_bytes();
    if digits.len() % 2 != 0 {
        return Err(Error::argument(format!(
            "hex {:?}: an odd number of digits",
            text
        )));
    }
    digits
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| match (value(pair[0]), value(pair[1])) {
            (Some(high), Some(low)) => Ok(high << 4 | low),
            _ => Err(Error::argument(format!(
                "hex {:?}: not a hex digit at {}",
                text,
                2 * i
            ))),
        })
        .collect()
}

/// A digest from 64 hex digits.
pub fn decode_digest(text: &str) -> Result<[u8; 32]> {
    let bytes = decode(text)?;
    let mut digest = [0u8; 32];
    if bytes.len() != digest.len() {
        return Err(Error::argument(format!(
            "hex {:?}: {} digits, a digest is 64",
            text,
            text.len()
        )));
    }
    digest.copy_from_slice(&bytes);
    Ok(digest)
}

fn value(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        b'A'..=b'F' => Some(digit - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_what_is_not_hex() {
        let bytes: Vec<u8> = (0..=255).collect();
        assert_eq!(decode(&encode(&bytes)).unwrap(), bytes);
        assert_eq!(encode(&[0x0f, 0xa0]), "0fa0");
        assert_eq!(decode("0FA0").unwrap(), vec![0x0f, 0xa0]);
        assert!(decode("abc").unwrap_err().message().contains("odd number"));
        assert!(decode("zz")
            .unwrap_err()
            .message()
            .contains("not a hex digit at 0"));
        assert!(decode_digest("00")
            .unwrap_err()
            .message()
            .contains("2 digits, a digest is 64"));
    }
}
