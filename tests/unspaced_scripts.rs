//! Pages in scripts written without spaces (Chinese, Japanese): their words are counted by Unicode word
//! segmentation wherever the cleaner counts words, so an article paragraph is the long line of prose it
//! is, not one "word", and the stages that keep prose keep it.

use std::fs;

#[path = "regression/run.rs"]
#[allow(dead_code)]
mod run;

use run::{chaff, stderr};

/// Characters article sentences are drawn from.
const HAN: &str = "市政府今天宣布新的港口将在明年春天正式开放并且预计每年可以接待超过两百万名游客和大量货物当地居民对这个消息表示欢迎但也有人担心交通拥堵环境污染问题会因此变得更加严重起来负责项目工程师说所有建设工作已经完成大约八成剩下部分秋天之前结束专家认为附近小城带来多机会同时促进旅游业服务快速发展";

/// A sentence of `len` characters no other page has (a fixed pseudo-random draw), ending in a full stop.
fn sentence(seed: &mut u64, len: usize) -> String {
    let han: Vec<char> = HAN.chars().collect();
    let mut s: String = (0..len)
        .map(|_| {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            han[(*seed >> 33) as usize % han.len()]
        })
        .collect();
    s.push('。');
    s
}

#[test]
fn a_chinese_article_is_kept_whole_while_its_template_goes() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("xinwen");
    fs::create_dir(&corpus).unwrap();
    let mut articles: Vec<Vec<String>> = Vec::new();
    for page in 0..8 {
        let mut seed = page as u64 + 1;
        let article: Vec<String> = (0..3).map(|_| sentence(&mut seed, 40)).collect();
        let text = format!(
            "首页 新闻 体育 财经 娱乐\n本报记者 第{page}号\n{}\n{}\n广告 点击查看更多精彩内容\n{}\n相关新闻\n版权所有 请勿转载\n",
            article[0], article[1], article[2]
        );
        fs::write(corpus.join(format!("{page:02}.txt")), text).unwrap();
        articles.push(article);
    }
    let o = chaff(&["mine", "xinwen", "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    // the advertisement inside the article looks like a footer's start to mining; without its cut the
    // article's last paragraph is a run of its own after the removed advertisement, which `short-runs`
    // keeps only if it sees the paragraph's words and its sentences
    let args =
        ["clean", "--rules", "rules/xinwen.toml", "--include-pending", "--off", "cuts", "xinwen", "--out", "out"];
    let o = chaff(&args, dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    for (page, article) in articles.iter().enumerate() {
        let cleaned = fs::read_to_string(dir.path().join(format!("out/{page:02}.txt"))).unwrap();
        for sentence in article {
            assert!(cleaned.contains(sentence.as_str()), "page {page} lost {sentence:?}: {cleaned:?}");
        }
        assert!(!cleaned.contains("版权所有"), "page {page} kept the footer: {cleaned:?}");
    }
}

/// A Chinese news site's pages: `<title>` is the headline and the site's name after a bare `_`, as such
/// sites write it, the headline above a date line the site prints on every page (a header string).
#[test]
fn a_chinese_headline_stays_above_the_header_cut() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("gangkou");
    fs::create_dir(&corpus).unwrap();
    let mut pages = Vec::new();
    for page in 0..10u64 {
        let mut seed = page + 1;
        let headline = sentence(&mut seed, 12).trim_end_matches('。').to_string();
        let article: Vec<String> = (0..3).map(|_| sentence(&mut seed, 60)).collect();
        let html = format!(
            "<html><head><meta charset=\"utf-8\"><title>{headline}_港口日报</title></head><body>\
             <div class=\"nav\"><a href=\"/\">首页</a> <a href=\"/n\">新闻</a> <a href=\"/s\">体育</a></div>\
             <div class=\"article\"><h1>{headline}</h1><div class=\"info\">2026年{}月{}日 来源：港口日报 作者：记者 张明</div>\
             <p>{}</p><p>{}</p><p>{}</p></div><div class=\"footer\">版权所有 © 2026 港口日报社</div></body></html>",
            1 + page % 12,
            1 + page * 3 % 28,
            article[0],
            article[1],
            article[2]
        );
        fs::write(corpus.join(format!("{page:02}.html")), html).unwrap();
        pages.push(headline);
    }
    let o = chaff(&["mine", "gangkou", "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = chaff(
        &["clean", "--rules", "rules/gangkou.toml", "--include-pending", "gangkou", "--out", "out", "--text"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    for (page, headline) in pages.iter().enumerate() {
        let cleaned = fs::read_to_string(dir.path().join(format!("out/{page:02}.txt"))).unwrap();
        assert!(cleaned.starts_with(headline.as_str()), "page {page} lost its headline {headline:?}: {cleaned:?}");
        assert!(!cleaned.contains("首页") && !cleaned.contains("版权所有"), "page {page}: {cleaned:?}");
    }
}

/// A Chinese site's date line writes its date as one token ("2026年4月10日") and its weekday as a word
/// ("星期四"): mining reads both as slots, so the line is one template string on every page with the
/// menu above it, as an English site's "Thursday, 10 April 2026" is (with the bundled patterns alone each
/// page's was its own).
#[test]
fn a_chinese_date_line_is_one_template_string_of_slots() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("riqi");
    fs::create_dir(&corpus).unwrap();
    let weekdays = ["一", "二", "三", "四", "五", "六", "日"];
    for page in 0..12u64 {
        let mut seed = page + 1;
        let html = format!(
            "<html><head><meta charset=\"utf-8\"><title>{}_港口日报</title></head><body>\
             <div class=\"nav\"><a href=\"/\">首页</a> <a href=\"/n\">新闻</a></div>\
             <div class=\"info\">2026年{}月{}日 星期{} {:02}:{:02} 来源：港口日报</div><p>{}</p><p>{}</p>\
             <div class=\"footer\">版权所有 © 2026 港口日报社</div></body></html>",
            sentence(&mut seed, 12),
            1 + page % 12,
            1 + page * 3 % 28,
            weekdays[page as usize % 7],
            page % 24,
            page * 7 % 60,
            sentence(&mut seed, 60),
            sentence(&mut seed, 50),
        );
        fs::write(corpus.join(format!("{page:02}.html")), html).unwrap();
    }
    let o = chaff(&["mine", "riqi", "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("dates read in English and Chinese/Japanese"), "{said}");
    let rules = fs::read_to_string(dir.path().join("rules/riqi.toml")).unwrap();
    assert!(
        rules.contains(r#""«month»", "«weekday»", "«date_time»", "来源：港口日报"]"#),
        "the date line is one string of slots (with the menu above it): {rules}"
    );
}
