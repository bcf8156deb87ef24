//! Images and PDFs as MCP content blocks, so that a host shows them to the model: an
//! image as an `image` block (`{type, data, mimeType}`) and a PDF as an embedded
//! `resource` (`{type, resource: {uri, mimeType, blob}}`), as the specification's
//! tools page defines them
//! (<https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool-result>).

use std::fmt::Write as _;

use serde_json::{json, Value};

/// The content blocks of the media files a result holds: a `read_file` of one, or the
/// files of a `read_files`, in order.
#[must_use]
pub fn blocks(data: &Value) -> Vec<Value> {
    match data.get("files").and_then(Value::as_array) {
        Some(files) => files.iter().filter_map(block).collect(),
        None => block(data).into_iter().collect(),
    }
}

/// The block of one read, if it is an image or a PDF.
fn block(read: &Value) -> Option<Value> {
    let mime = read.get("media")?.get("mime")?.as_str()?;
    let data = read.get("base64")?.as_str()?;
    if mime.starts_with("image/") {
        return Some(json!({"type": "image", "data": data, "mimeType": mime}));
    }
    let path = read.get("path").and_then(Value::as_str).unwrap_or_default();
    Some(json!({"type": "resource", "resource": {
        "uri": uri(path),
        "mimeType": mime,
        "blob": data,
    }}))
}

/// The envelope with every `base64` left out, for the text item beside the blocks.
#[must_use]
pub fn without_base64(mut envelope: Value) -> Value {
    let data = &mut envelope["data"];
    if let Some(files) = data.get_mut("files").and_then(Value::as_array_mut) {
        for file in files {
            if let Some(map) = file.as_object_mut() {
                map.remove("base64");
            }
        }
    } else if let Some(map) = data.as_object_mut() {
        map.remove("base64");
    }
    envelope
}

/// A URI naming the workspace file `path` without saying where the workspace is: the
/// `stitch` scheme, the path's bytes percent-encoded where a URI path may not hold them.
fn uri(path: &str) -> String {
    let mut out = String::from("stitch:///");
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn an_image_is_an_image_block_and_a_pdf_a_resource() {
        let image = json!({"path": "a.png", "media": {"mime": "image/png"}, "base64": "AA=="});
        assert_eq!(
            super::blocks(&image),
            vec![json!({"type": "image", "data": "AA==", "mimeType": "image/png"})]
        );
        let files = json!({"files": [
            {"path": "a b.pdf", "ok": true, "media": {"mime": "application/pdf"}, "base64": "AA=="},
            {"path": "c.txt", "ok": true, "content": "x"},
        ]});
        assert_eq!(
            super::blocks(&files),
            vec![json!({"type": "resource", "resource": {
                "uri": "stitch:///a%20b.pdf", "mimeType": "application/pdf", "blob": "AA=="}})]
        );
    }
}
