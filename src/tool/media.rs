//! Images and PDFs, told by their leading bytes (never by their names): what
//! `read_file` returns for one — its type, size and digest, and its bytes in base64 —
//! within the bytes a read may return. Any other binary content stays `NOT_TEXT`.
//!
//! A PDF is returned whole: choosing its pages would need a PDF parser and writer,
//! which stitch does not carry.

use schemars::JsonSchema;
use serde::Serialize;

use crate::refusal::{key, Code, Refusal};

/// What a media file is, and what the reader is told of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MediaType {
    /// Its MIME type.
    pub mime: &'static str,
    /// Whether hosts show it as an image (else it is a document: a PDF).
    pub image: bool,
}

/// The media kind the leading bytes of `bytes` announce, if any.
#[must_use]
pub fn sniff(bytes: &[u8]) -> Option<MediaType> {
    let image = |mime| Some(MediaType { mime, image: true });
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        image("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        image("image/jpeg")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        image("image/gif")
    } else if bytes.len() >= 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP" {
        image("image/webp")
    } else if bytes.starts_with(b"%PDF-") {
        Some(MediaType {
            mime: "application/pdf",
            image: false,
        })
    } else {
        None
    }
}

/// What is known of a media file besides its content.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Media {
    /// Its MIME type, from its leading bytes: image/png, image/jpeg, image/gif,
    /// image/webp or application/pdf.
    pub mime: &'static str,
    /// Its size in bytes.
    pub bytes: usize,
    /// The digest of its bytes (pass it as expectedSha256 to replace or move it).
    pub sha256: String,
}

/// What `read_file` returns for an image or a PDF, in this order.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MediaResult {
    pub path: String,
    pub media: Media,
    /// The file's bytes, base64-encoded (standard alphabet, padded).
    pub base64: String,
}

impl MediaResult {
    /// The result for the media file `shown` of kind `kind`, its bytes `bytes`.
    #[must_use]
    pub fn new(shown: String, kind: MediaType, bytes: &[u8], sha256: String) -> MediaResult {
        MediaResult {
            path: shown,
            media: Media {
                mime: kind.mime,
                bytes: bytes.len(),
                sha256,
            },
            base64: encode(bytes),
        }
    }

    /// Whether hosts show it as an image (else it is a PDF).
    #[must_use]
    pub fn is_image(&self) -> bool {
        self.media.mime.starts_with("image/")
    }
}

/// `TOO_LARGE`: the media file `shown` of `bytes` bytes is over the `limit` a read
/// returns (`cap` the most the caller may ask for).
#[cold]
pub fn too_large(shown: &str, kind: MediaType, bytes: usize, limit: u64, cap: u64) -> Refusal {
    Refusal::new(
        Code::TooLarge,
        format!(
            "`{shown}` is {} of {bytes} bytes, over the {limit} bytes a read returns",
            if kind.image { "an image" } else { "a PDF" }
        ),
    )
    .with(key::PATH, shown)
    .with("mime", kind.mime)
    .with("bytes", bytes)
    .with("limit", limit)
    .with("cap", cap)
}

/// `bytes` in base64, the standard alphabet with padding (RFC 4648, section 4).
#[must_use]
pub fn encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let sextet = |shift: u32| char::from(ALPHABET[((n >> shift) & 63) as usize]);
        out.push(sextet(18));
        out.push(sextet(12));
        out.push(if chunk.len() > 1 { sextet(6) } else { '=' });
        out.push(if chunk.len() > 2 { sextet(0) } else { '=' });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{encode, sniff};

    /// The test vectors of RFC 4648, section 10.
    #[test]
    fn encodes_as_rfc_4648_says() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(encode(plain.as_bytes()), encoded);
        }
        assert_eq!(encode(&[0xFF, 0xFE, 0xFD]), "//79");
    }

    #[test]
    fn tells_media_by_leading_bytes_only() {
        let mime = |b: &[u8]| sniff(b).map(|k| k.mime);
        assert_eq!(mime(b"\x89PNG\r\n\x1a\n\0\0"), Some("image/png"));
        assert_eq!(mime(&[0xFF, 0xD8, 0xFF, 0xE0]), Some("image/jpeg"));
        assert_eq!(mime(b"GIF89a\x01\0"), Some("image/gif"));
        assert_eq!(mime(b"RIFF\x10\0\0\0WEBPVP8 "), Some("image/webp"));
        assert_eq!(mime(b"%PDF-1.7\n"), Some("application/pdf"));
        assert_eq!(mime(b"RIFF\x10\0\0\0WAVEfmt "), None);
        assert_eq!(mime(b"PNG"), None);
        assert_eq!(mime(b"\0\x01binary"), None);
    }
}
