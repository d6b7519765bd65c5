//! Pretty JSON text as `serde_json::to_string_pretty` writes it, made by
//! re-indenting the compact text of `serde_json::to_string`.
//!
//! Why: serde serializers are generic over the output format, so every
//! type written both compact (for the page, share links) and pretty (the
//! files the CLI and the page save) had two serializers in the wasm. With
//! this, each type has one, and the pretty layout is one small function
//! (docs/PERFORMANCE.md, Size). The output is byte for byte what
//! serde_json's `PrettyFormatter` writes (tested below on every kind of
//! value the project writes).

use serde::Serialize;

/// `value` as pretty JSON text, identical to
/// `serde_json::to_string_pretty(value)`.
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    serde_json::to_string(value).map(|compact| reindent(&compact))
}

/// Lays out compact JSON text (no whitespace outside strings, as
/// `serde_json::to_string` writes it) the way serde_json's
/// `PrettyFormatter` does: two spaces per level, `": "` after keys, one
/// element per line, and empty arrays and objects as `[]` and `{}`.
pub fn reindent(compact: &str) -> String {
    let bytes = compact.as_bytes();
    let mut out = String::with_capacity(compact.len() + compact.len() / 2);
    let mut depth = 0usize;
    let mut i = 0;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // Copy the string through its closing quote.
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(bytes.len());
                out.push_str(&compact[start..i]);
                continue;
            }
            open @ (b'[' | b'{') => {
                let close = if open == b'[' { b']' } else { b'}' };
                if bytes.get(i + 1) == Some(&close) {
                    out.push(open as char);
                    out.push(close as char);
                    i += 2;
                    continue;
                }
                out.push(open as char);
                depth += 1;
                newline(&mut out, depth);
            }
            close @ (b']' | b'}') => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(close as char);
            }
            b',' => {
                out.push(',');
                newline(&mut out, depth);
            }
            b':' => out.push_str(": "),
            _ => {
                // A number, true, false or null: copy up to the next
                // structural character.
                let start = i;
                while i < bytes.len() && !matches!(bytes[i], b',' | b']' | b'}' | b':') {
                    i += 1;
                }
                out.push_str(&compact[start..i]);
                continue;
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::to_string_pretty;
    use serde_json::json;

    fn same<T: serde::Serialize + ?Sized>(value: &T) {
        let want = serde_json::to_string_pretty(value).unwrap();
        assert_eq!(to_string_pretty(value).unwrap(), want);
    }

    #[test]
    fn matches_serde_json_on_edge_cases() {
        for value in [
            json!(null),
            json!(1),
            json!(-0.5),
            json!(1e300),
            json!("a \"quoted\" \\ string, with: {brackets} [and] commas\n\t\u{1}"),
            json!([]),
            json!({}),
            json!([[]]),
            json!([{}]),
            json!({"a": []}),
            json!({"a": {}, "b": [[], {}, [1, [2, []]]], "c": {"d": {"e": null}}}),
            json!([1, "two", true, false, null, 3.25, {"k": "v"}]),
            json!({"": "", "\"": "\\", "{": "}", "[": "]", ",": ":"}),
        ] {
            same(&value);
        }
    }
}
