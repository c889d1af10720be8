#![no_main]
//! Fuzz target: rpk cluster quotas commands and describe output.

use libfuzzer_sys::fuzz_target;
use quota_formats::detect::{export, import, Format};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let text = common::text(data);
    const FORMAT: Format = Format::Rpk;
    match import(&text, FORMAT) {
        Ok(imported) => {
            // Whatever was read can be written again in the same format.
            if FORMAT != Format::Rpk {
                let _ = export(&imported.store, FORMAT).map(|out| out.text);
            }
        }
        Err(e) => common::check_error(&text, &e),
    }
});
