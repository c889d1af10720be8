//! SCRAM-SHA-512 for the `sasl` crate, which ships SHA-1 and SHA-256: the
//! same provider as its `Sha256`, with RustCrypto's SHA-512 (the `sha2`,
//! `hmac` and `pbkdf2` crates the `sasl` crate itself builds on).
//!
//! Kafka: `ScramMechanism.SCRAM_SHA_512` (hash `SHA-512`, MAC
//! `HmacSHA512`), clients/src/main/java/org/apache/kafka/common/security/scram/internals/ScramMechanism.java.

use hmac::{Hmac, Mac};
use sasl::common::scram::{DeriveError, ScramProvider};
use sasl::common::Password;
use sha2::{Digest, Sha512 as Sha512Hash};

/// The most PBKDF2 iterations a broker may ask for: Kafka's own maximum
/// (`ScramMechanism.maxIterations()` is 16384 for every mechanism); a
/// broker asking for more is refused rather than run for hours.
const MAX_ITERATIONS: u32 = 16_384;

/// The SHA-512 SCRAM provider.
pub(crate) struct Sha512;

impl ScramProvider for Sha512 {
    type Secret = sasl::secret::Plain;

    fn name() -> &'static str {
        "SHA-512"
    }

    fn hash(data: &[u8]) -> Vec<u8> {
        Sha512Hash::digest(data).to_vec()
    }

    fn hmac(data: &[u8], key: &[u8]) -> Result<Vec<u8>, hmac::digest::InvalidLength> {
        let mut mac = Hmac::<Sha512Hash>::new_from_slice(key)?;
        mac.update(data);
        Ok(mac.finalize().into_bytes().to_vec())
    }

    fn derive(password: &Password, salt: &[u8], iterations: u32) -> Result<Vec<u8>, DeriveError> {
        if iterations > MAX_ITERATIONS {
            return Err(DeriveError::IncompatibleIterationCount(iterations, MAX_ITERATIONS));
        }
        match password {
            Password::Plain(plain) => {
                let mut out = vec![0u8; 64];
                pbkdf2::pbkdf2::<Hmac<Sha512Hash>>(plain.as_bytes(), salt, iterations, &mut out)?;
                Ok(out)
            }
            Password::Pbkdf2 { method, .. } => Err(DeriveError::IncompatibleHashingMethod(
                method.clone(),
                Self::name().to_owned(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 5802's Hi() with SHA-512: PBKDF2-HMAC-SHA512 of "password" /
    /// "salt", 1 iteration (RFC 6070-style vector for SHA-512).
    #[test]
    fn derive_is_pbkdf2_hmac_sha512() {
        let out = Sha512::derive(&Password::Plain("password".to_owned()), b"salt", 1).unwrap();
        let hex: String = out.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            "867f70cf1ade02cff3752599a3a53dc4af34c7a669815ae5d513554e1c8cf252c02d470a285a0501bad999bfe943c08f050235d7d68b1da55e63f73b60a57fce"
        );
        assert_eq!(Sha512::hash(b"").len(), 64);
    }
}
