//! Decimal numbers typed by people (URL parameters, experiment values)
//! read with serde_json's number parser, the one that already reads every
//! number of a scenario file, instead of `str::parse::<f64>`: the standard
//! library's parser brings a 10 KB table of powers of five into the wasm
//! (docs/PERFORMANCE.md, Size), and the same text now gives the same
//! number whether it came from a file or a URL.

/// `text` as a finite number, or `None`. Accepts what people write and
/// `str::parse::<f64>` accepts for finite numbers: an optional sign,
/// digits with an optional point (`5`, `0.05`, `.5`, `5.`, `007`) and an
/// optional exponent (`1e-3`, `2E6`). Rejects `inf`, `nan`, empty text
/// and anything else.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let (negative, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], Some(&rest[at + 1..])),
        None => (rest, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !digits(int) || !digits(frac) {
        return None;
    }
    // JSON's grammar: no leading zeros, digits on both sides of the point,
    // an exponent of digits after an optional sign.
    let int = int.trim_start_matches('0');
    let mut json = String::with_capacity(text.len() + 3);
    if negative {
        json.push('-');
    }
    json.push_str(if int.is_empty() { "0" } else { int });
    if !frac.is_empty() {
        json.push('.');
        json.push_str(frac);
    }
    if let Some(exp) = exponent {
        let exp_digits = exp.strip_prefix(['+', '-']).unwrap_or(exp);
        if exp_digits.is_empty() || !digits(exp_digits) {
            return None;
        }
        json.push('e');
        json.push_str(exp);
    }
    serde_json::from_str::<f64>(&json)
        .ok()
        .filter(|x| x.is_finite())
}

#[cfg(test)]
mod tests {
    use super::parse_decimal;

    /// Every form people type gives exactly what the standard library's
    /// parser gives (the numbers of the presets, the query-string tests
    /// and the experiments among them).
    #[test]
    fn agrees_with_the_standard_parser() {
        for text in [
            "0",
            "5",
            "-5",
            "+5",
            "0.05",
            "0.5",
            ".5",
            "5.",
            "-.25",
            "007",
            "007.50",
            "1e-3",
            "2E6",
            "1.5e+2",
            "-0.0",
            "0.1",
            "0.2",
            "0.3",
            "0.001",
            "0.0001",
            "0.3333",
            "150",
            "1000000",
            "12.75",
            "99.99",
            "0.00005",
            "1e22",
            "123456789012345",
        ] {
            let want: f64 = text.parse().unwrap();
            let got = parse_decimal(text).unwrap_or_else(|| panic!("{text:?} rejected"));
            assert_eq!(got.to_bits(), want.to_bits(), "{text:?}");
        }
    }

    #[test]
    fn rejects_what_is_not_a_finite_decimal() {
        for text in [
            "", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "1-2", "inf", "-inf", "NaN", "abc",
            "1,5", " 1", "0x10", "1e999",
        ] {
            assert_eq!(parse_decimal(text), None, "{text:?}");
        }
    }
}
