//! The HTTP response a WARC `response` record holds: status, headers, and the payload as the server
//! meant it (chunked transfer undone, gzip or deflate content decoded).

use std::io::Read;

/// A response's parts that decide whether and how its payload is read.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    /// The media type of `Content-Type`, lowercased, without parameters (`text/html`); empty when absent.
    pub media_type: String,
    /// The `charset` parameter of `Content-Type`, when it names an encoding.
    pub charset: Option<&'static encoding_rs::Encoding>,
    pub body: Vec<u8>,
}

/// Payloads larger than this once decoded are not pages: a decompression bomb stops here.
const MAX_DECODED: u64 = 256 << 20;

/// Parses an HTTP/1.x response. An error says what is wrong with it.
pub fn parse(block: &[u8]) -> Result<Response, String> {
    let head_end = find(block, b"\r\n\r\n")
        .map(|i| (i, i + 4))
        .or_else(|| find(block, b"\n\n").map(|i| (i, i + 2)))
        .ok_or("no end of the HTTP headers (a blank line)")?;
    let head = String::from_utf8_lossy(&block[..head_end.0]);
    let mut lines = head.lines();
    let status_line = lines.next().unwrap_or_default();
    let mut parts = status_line.split_whitespace();
    if !parts.next().is_some_and(|p| p.starts_with("HTTP/")) {
        return Err(format!("not an HTTP response: status line {:?}", truncate(status_line)));
    }
    let status = parts
        .next()
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| format!("no status code in {:?}", truncate(status_line)))?;
    let (mut content_type, mut chunked, mut coding) = (String::new(), false, String::new());
    for line in lines {
        let Some((name, value)) = line.split_once(':') else { continue };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-type" => content_type = value.to_string(),
            "transfer-encoding" => chunked = value.to_ascii_lowercase().contains("chunked"),
            "content-encoding" => coding = value.to_ascii_lowercase(),
            _ => {}
        }
    }
    let mut params = content_type.split(';');
    let media_type = params.next().unwrap_or_default().trim().to_ascii_lowercase();
    let charset = params
        .filter_map(|p| p.split_once('='))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("charset"))
        .and_then(|(_, v)| encoding_rs::Encoding::for_label(v.trim().trim_matches(['"', '\'']).as_bytes()));
    let raw = &block[head_end.1..];
    // a crawler that stored the body already de-chunked keeps the header: read it as it is then
    let body = if chunked { dechunk(raw).unwrap_or_else(|| raw.to_vec()) } else { raw.to_vec() };
    let body = match coding.as_str() {
        "" | "identity" => body,
        "gzip" | "x-gzip" => inflate(flate2::read::MultiGzDecoder::new(&body[..]), &body)?,
        "deflate" => match inflate(flate2::read::ZlibDecoder::new(&body[..]), &body) {
            Ok(b) => b,
            // servers send raw deflate under this name too
            Err(_) => inflate(flate2::read::DeflateDecoder::new(&body[..]), &body)?,
        },
        other => return Err(format!("content encoding {other:?} is not read (gzip and deflate are)")),
    };
    Ok(Response { status, media_type, charset, body })
}

fn inflate(reader: impl Read, raw: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(raw.len() * 4);
    reader.take(MAX_DECODED).read_to_end(&mut out).map_err(|e| format!("its compressed content is damaged: {e}"))?;
    Ok(out)
}

/// The body of a chunked transfer; `None` when it is not one.
fn dechunk(mut raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(raw.len());
    loop {
        let eol = find(raw, b"\n")?;
        let size_text = std::str::from_utf8(&raw[..eol]).ok()?.trim();
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        raw = &raw[eol + 1..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(raw.get(..size)?);
        raw = &raw[size..];
        raw = raw.strip_prefix(b"\r\n").or_else(|| raw.strip_prefix(b"\n")).unwrap_or(raw);
    }
}

pub(crate) fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay, needle)
}

fn truncate(s: &str) -> String {
    s.chars().take(60).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_give_status_media_type_and_charset() {
        let r = parse(b"HTTP/1.1 200 OK\r\nContent-Type: text/HTML; charset=\"windows-1251\"\r\n\r\n<p>x</p>").unwrap();
        assert_eq!((r.status, r.media_type.as_str()), (200, "text/html"));
        assert_eq!(r.charset, Some(encoding_rs::WINDOWS_1251));
        assert_eq!(r.body, b"<p>x</p>");
    }

    #[test]
    fn a_chunked_gzipped_body_is_read_as_the_server_meant_it() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(b"<p>hello</p>").unwrap();
        let gz = gz.finish().unwrap();
        let mut block = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        block.extend(format!("{:x}\r\n", gz.len()).as_bytes());
        block.extend(&gz);
        block.extend(b"\r\n0\r\n\r\n");
        assert_eq!(parse(&block).unwrap().body, b"<p>hello</p>");
    }

    #[test]
    fn a_block_that_is_no_http_response_is_an_error() {
        assert!(parse(b"hello\r\n\r\n").unwrap_err().contains("not an HTTP response"));
        assert!(parse(b"HTTP/1.1 200 OK\r\nX: y").unwrap_err().contains("no end"));
    }
}
