//! Fuzz target: any text as the value of a `#s=` share link. Decoding must
//! never panic and never allocate past its limits; an accepted link must
//! encode back to a link that decodes to the same scenario.
#![no_main]

use election_core::share;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(scenario) = share::decode(text) {
        let again = share::decode(&share::encode(&scenario)).expect("re-encoded link decodes");
        assert_eq!(again, scenario);
    }
});
