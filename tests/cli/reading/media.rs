//! Images and PDFs: told by their leading bytes, never their names; returned whole and
//! base64-encoded within maxBytes; over MCP as image and embedded-resource blocks; in
//! text as what they are and their size. Other binary content stays NOT_TEXT.

use serde_json::json;

use crate::support::{McpServer, TestWorkspace, SHA256};

use super::{PDF, PDF_BASE64, PNG, PNG_BASE64};

/// A PNG named `.txt` is an image, by JSON and by flags alike.
#[test]
fn a_png_named_txt_is_an_image() {
    let ws = TestWorkspace::new();
    ws.file("notes.txt", PNG);
    let expected = json!({"ok": true, "data": {
        "path": "notes.txt",
        "media": {"mime": "image/png", "bytes": PNG.len(), "sha256": SHA256},
        "base64": PNG_BASE64,
    }});
    ws.stitch("read", &json!({"path": "notes.txt"}))
        .assert_envelope(&expected);
    ws.run(&["read", "notes.txt"]).assert_envelope(&expected);
}

/// Every kind by its magic: JPEG, GIF and WebP images, and a PDF named `.bin`; a WAVE
/// file (RIFF, not WebP) and other binary stay NOT_TEXT.
#[test]
fn each_kind_is_told_by_its_bytes() {
    let ws = TestWorkspace::new();
    ws.file("a.jpg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00")
        .file("b", b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")
        .file("c.webp", b"RIFF\x0c\x00\x00\x00WEBPVP8 ")
        .file("d.bin", PDF)
        .file("e.wav", b"RIFF\x0c\x00\x00\x00WAVEfmt ")
        .file("f.png", b"\x00PNG not really");
    for (path, mime, base64) in [
        ("a.jpg", "image/jpeg", "/9j/4AAQSkZJRgA="),
        ("b", "image/gif", "R0lGODlhAQABAAAAADs="),
        ("c.webp", "image/webp", "UklGRgwAAABXRUJQVlA4IA=="),
        ("d.bin", "application/pdf", PDF_BASE64),
    ] {
        let run = ws.stitch("read", &json!({"path": path}));
        assert_eq!(run.ok()["media"]["mime"], mime, "{path}");
        assert_eq!(run.ok()["base64"], base64, "{path}");
    }
    for path in ["e.wav", "f.png"] {
        ws.stitch("read", &json!({"path": path}))
            .refused("NOT_TEXT");
    }
}

/// A media file counts against the read limits: over maxBytes it is TOO_LARGE with its
/// type and size, and the hint says how to read it whole; over maxReadBytes, that it
/// cannot be.
#[test]
fn media_reads_count_against_the_limits() {
    let ws = TestWorkspace::new();
    ws.file("doc.pdf", PDF);
    ws.stitch("read", &json!({"path": "doc.pdf", "maxBytes": 10}))
        .assert_envelope(&json!({"ok": false, "error": "TOO_LARGE",
            "details": {"message": format!("`doc.pdf` is a PDF of {} bytes, over the 10 bytes a read returns", PDF.len()),
                        "path": "doc.pdf", "mime": "application/pdf", "bytes": PDF.len(),
                        "limit": 10, "cap": 262_144},
            "_hint": format!("Pass maxBytes {} (up to 262144) to read it whole.", PDF.len())}));
    ws.file(".stitch/config.json", r#"{"limits": {"maxReadBytes": 16}}"#);
    ws.file("shot.png", PNG);
    ws.run(&["read", "shot.png"])
        .assert_envelope(&json!({"ok": false, "error": "TOO_LARGE",
            "details": {"message": format!("`shot.png` is an image of {} bytes, over the 16 bytes a read returns", PNG.len()),
                        "path": "shot.png", "mime": "image/png", "bytes": PNG.len(),
                        "limit": 16, "cap": 16},
            "_hint": "`shot.png` is larger than any read returns (limits.maxReadBytes, 16): ask the workspace owner to raise limits.maxReadBytes, or use a smaller copy of it."}));
}

/// In text, what it is and its size; never base64.
#[test]
fn text_says_what_it_is_and_its_size() {
    let ws = TestWorkspace::new();
    ws.file("shot.txt", PNG).file("doc.pdf", PDF);
    for (path, line) in [
        (
            "shot.txt",
            format!("shot.txt: image (image/png), {} bytes, sha256 ", PNG.len()),
        ),
        (
            "doc.pdf",
            format!(
                "doc.pdf: PDF document (application/pdf), {} bytes, sha256 ",
                PDF.len()
            ),
        ),
    ] {
        let output = ws
            .cmd()
            .args(["--format", "text", "read", path])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(stdout.starts_with(&line), "{stdout}");
        assert_eq!(stdout.lines().count(), 1, "{stdout}");
        assert!(!stdout.contains(PNG_BASE64) && !stdout.contains(PDF_BASE64));
    }
}

/// Over MCP an image is an `image` content block and a PDF an embedded `resource`, as
/// the specification defines them; the text item leaves the base64 out, the structured
/// content keeps it; read_files gives each file its block, in order.
#[test]
fn over_mcp_media_are_content_blocks() {
    let ws = TestWorkspace::new();
    ws.file("shot.txt", PNG)
        .file("doc.pdf", PDF)
        .file("a.txt", "x\n");
    let mut server = McpServer::start(&ws, &[], &[]);
    server.initialize("2025-06-18");
    let result = server.call("read_file", &json!({"path": "shot.txt"}));
    assert_eq!(result["isError"], false);
    let content = result["content"].as_array().unwrap();
    assert_eq!(content.len(), 2, "{result}");
    assert_eq!(
        content[1],
        json!({"type": "image", "data": PNG_BASE64, "mimeType": "image/png"})
    );
    let text: serde_json::Value =
        serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        text,
        json!({"ok": true, "data": {"path": "shot.txt", "media": result["structuredContent"]["media"]}})
    );
    assert_eq!(result["structuredContent"]["base64"], PNG_BASE64);

    let result = server.call(
        "read_files",
        &json!({"paths": ["a.txt", "doc.pdf", "shot.txt"]}),
    );
    let content = result["content"].as_array().unwrap();
    assert_eq!(content.len(), 3, "{result}");
    assert_eq!(
        content[1],
        json!({"type": "resource", "resource": {
            "uri": "stitch:///doc.pdf", "mimeType": "application/pdf", "blob": PDF_BASE64}})
    );
    assert_eq!(content[2]["type"], "image");
    server.close(std::time::Duration::from_secs(5));
}
