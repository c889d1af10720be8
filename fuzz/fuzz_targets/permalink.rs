#![no_main]
//! Fuzz target: the permalink decoder (`v1.` + base64url + raw DEFLATE +
//! scenario JSON), bounded in size; a decoded scenario encodes back to a
//! link that decodes to the same scenario.

use libfuzzer_sys::fuzz_target;
use quota_formats::permalink::{decode, encode};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(s) = decode(&text) {
        assert_eq!(decode(&encode(&s)).ok(), Some(s));
    }
    // The same bytes as a payload after a valid prefix reach the inflater.
    let _ = decode(&format!("v1.{}", text.trim_start_matches("v1.")));
});
