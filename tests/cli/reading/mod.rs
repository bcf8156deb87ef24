//! Reading what agents read and inserting where the text-editor tool inserts: several
//! files in one call, images and PDFs, edit's insert form, and `stitch text-editor`.

// read_files: order, inline refusals, globs, the total bound, sessions, text.
mod many;
// Images and PDFs by their leading bytes: flags, JSON, MCP content blocks, text, limits.
mod media;
// edit_file's insert form: flags, JSON, MCP, sessions by region, expectedLine.
mod insert;
// `stitch text-editor`: every command and its refusals, in the tool's documented shapes.
mod text_editor;

/// A PNG's leading bytes and a little more (the same image the hint table uses).
pub const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01";
/// [`PNG`] in base64.
pub const PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAE=";
/// A small PDF, all but its second line ASCII.
pub const PDF: &[u8] = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n%%EOF\n";
/// [`PDF`] in base64.
pub const PDF_BASE64: &str = "JVBERi0xLjQKJeLjz9MKMSAwIG9iago8PD4+CmVuZG9iagolJUVPRgo=";
