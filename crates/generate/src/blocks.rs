//! A page for region rules: its nav and footer fixed (what string rules find), its article, and two blocks
//! whose every word changes from page to page (a strip of story links and a thread of reader reactions with
//! no fixed heading), so that only their containers repeat and only a rule on the element can remove them.
//! The thread's container is not named for comments: stage `comments` would take it without a rule.

/// Words unique to page `i` and `part`: no two pages, and no two parts, share one.
pub fn block_words(i: usize, part: &str, n: usize) -> String {
    (0..n).map(|w| format!("{part}{i}w{w}")).collect::<Vec<_>>().join(" ")
}

/// Page `i`: four article paragraphs of words `art{p}x…`, a related strip `ul.story-links` and a
/// thread of reactions `div#reactions` of words unique to the page.
pub fn block_page(i: usize) -> String {
    let paragraphs: String = (0..4).map(|p| format!("<p>{}.</p>", block_words(i, &format!("art{p}x"), 18))).collect();
    let comments: String = (0..3)
        .map(|c| format!("<li class=\"reaction\"><p>{}.</p></li>", block_words(i, &format!("com{c}x"), 9)))
        .collect();
    let related: String = (0..4)
        .map(|r| format!("<li><a href=\"/s{i}{r}\">{}</a></li>", block_words(i, &format!("rel{r}x"), 5)))
        .collect();
    format!(
        "<html><head><title>Headline {i}</title></head><body>\
         <div id=\"nav\"><a href=\"/\">Home</a> <a href=\"/news\">News</a> <a href=\"/sport\">Sport</a></div>\
         <div class=\"article\"><h1>Headline {i}</h1>{paragraphs}</div>\
         <ul class=\"story-links\">{related}</ul>\
         <div id=\"reactions\"><ol>{comments}</ol></div>\
         <div id=\"footer\">Copyright The Example Times. All rights reserved.</div></body></html>"
    )
}
