//! The textbook link: whole milliseconds, no framing bytes.

/// Milliseconds a transfer of `bytes` takes on a link of
/// `bandwidth_bytes_per_s`: `ceil(1000 * bytes / L)`, in integers (0 for 0
/// bytes). `bandwidth_bytes_per_s` is at least 1 (checked by the caller).
pub(crate) fn transfer_ms(bytes: u64, bandwidth_bytes_per_s: u64) -> i64 {
    let l = u128::from(bandwidth_bytes_per_s.max(1));
    let num = 1000 * u128::from(bytes);
    let ms = num.div_ceil(l);
    i64::try_from(ms).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transfers_round_up_to_whole_ms() {
        assert_eq!(transfer_ms(0, 1000), 0);
        assert_eq!(transfer_ms(1, 1_000_000), 1);
        assert_eq!(transfer_ms(1000, 1_000_000), 1);
        assert_eq!(transfer_ms(1001, 1_000_000), 2);
        assert_eq!(transfer_ms(3, 2000), 2);
    }
}
