//! Which source a crawled document belongs to: its explicit `source`, else its URL's host (or the
//! registrable domain of that host, from the public suffix list compiled into the `psl` crate).

/// How documents without an explicit `source` are grouped into sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Group {
    /// The URL's host, lowercased, without a port or a leading `www.` (the same site under both names).
    #[default]
    Host,
    /// The registrable domain of the host (`a.example.co.uk` and `b.example.co.uk` are `example.co.uk`).
    Domain,
}

/// The host of a URL: after `scheme://` (or `//`), before the path, query or fragment, without user
/// information or port, lowercased. `None` when the URL names no host.
pub fn host_of(url: &str) -> Option<String> {
    let url = url.trim();
    let rest = match url.find("://") {
        Some(i) => &url[i + 3..],
        None => url.strip_prefix("//")?,
    };
    let authority = &rest[..rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len())];
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        // an IPv6 literal: its colons are no port; a source name may not hold `:`
        v6.split(']').next().unwrap_or(v6).replace(':', "_")
    } else {
        host_port.split(':').next().unwrap_or(host_port).to_string()
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}

/// The source of a document: `source` when given, else the URL's host or registrable domain.
pub fn source_of(source: Option<&str>, url: Option<&str>, group: Group) -> Option<String> {
    if let Some(s) = source.map(str::trim).filter(|s| !s.is_empty()) {
        return Some(s.to_string());
    }
    let host = host_of(url?)?;
    let host = host.strip_prefix("www.").filter(|h| !h.is_empty()).map(str::to_string).unwrap_or(host);
    match group {
        Group::Host => Some(host),
        Group::Domain => Some(registrable(&host).unwrap_or(host)),
    }
}

/// The registrable domain (public suffix and one label more) of a host; `None` for an IP address, a host
/// that is a public suffix itself, or one the list does not know.
fn registrable(host: &str) -> Option<String> {
    if host.parse::<std::net::Ipv4Addr>().is_ok() || host.contains('_') {
        return None;
    }
    let domain = psl::domain(host.as_bytes())?;
    std::str::from_utf8(domain.as_bytes()).ok().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_host_is_lowercased_without_user_port_or_path() {
        assert_eq!(host_of("https://User@News.Example.COM:8443/a/b?q#f").as_deref(), Some("news.example.com"));
        assert_eq!(host_of("http://[::1]:80/x").as_deref(), Some("__1"));
        assert_eq!(host_of("//cdn.example.org/x").as_deref(), Some("cdn.example.org"));
        assert_eq!(host_of("not a url"), None);
        assert_eq!(host_of("file:///tmp/x"), None);
    }

    #[test]
    fn a_source_field_wins_over_the_url() {
        assert_eq!(source_of(Some("wire"), Some("https://a.example.com/"), Group::Host).as_deref(), Some("wire"));
        assert_eq!(source_of(None, Some("https://www.example.com/"), Group::Host).as_deref(), Some("example.com"));
        assert_eq!(source_of(None, None, Group::Host), None);
    }

    #[test]
    fn domain_grouping_merges_hosts_under_one_registrable_domain() {
        let d = |u| source_of(None, Some(u), Group::Domain);
        assert_eq!(d("https://a.example.co.uk/x").as_deref(), Some("example.co.uk"));
        assert_eq!(d("https://b.example.co.uk/y").as_deref(), Some("example.co.uk"));
        assert_eq!(d("https://news.bbc.com/").as_deref(), Some("bbc.com"));
        assert_eq!(d("http://10.0.0.1/").as_deref(), Some("10.0.0.1"));
        assert_ne!(source_of(None, Some("https://a.example.co.uk/x"), Group::Host), d("https://a.example.co.uk/x"));
    }
}
