//! `quota-prerender`: the default page's first render, as HTML, written
//! into a built `index.html`, so that a visitor sees the default scenario's
//! Answer, Lessons and Quotas while the page's WebAssembly module (about
//! 600 KiB gzip) is still on its way.
//!
//! Run by `scripts/prerender.sh` from Trunk's `post_build` hook (release
//! builds): `quota-prerender FILE` renders [`quota_playground::App`] with
//! Yew's server renderer (natively the page has no URL, storage or worker,
//! so it renders the default scenario, as a first visit does) and puts the
//! HTML into FILE's empty `<div id="prerender">`, with the default
//! scenario's permalink as its `data-link` and the storage keys the app
//! reads (`platform::AUTOSAVE_KEY`, `platform::RELOAD_KEY`) as
//! `data-autosave-key` and `data-reload-key`, so that index.html's script
//! asks what the app will. The element stays `hidden` and
//! `inert`: index.html's script shows it only where the page will open at
//! the default scenario (no scenario in the URL, no other autosave, no
//! embed), and the app removes it at its first render.
//!
//! Exit codes: 0 written; 1 FILE unreadable or without the element.

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: quota-prerender INDEX_HTML");
        return ExitCode::from(1);
    };
    let page = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("quota-prerender: cannot read {path}: {e}");
            return ExitCode::from(1);
        }
    };
    let html = without_ids(&block_on(yew::ServerRenderer::<quota_playground::App>::new().hydratable(false).render()));
    let link = quota_formats::permalink::encode(&quota_playground::presets::default_scenario());
    let attributes = format!(
        "data-link=\"{link}\" data-autosave-key=\"{}\" data-reload-key=\"{}\"",
        quota_playground::platform::AUTOSAVE_KEY,
        quota_playground::platform::RELOAD_KEY
    );
    let Some(out) = insert(&page, &html, &attributes) else {
        eprintln!("quota-prerender: {path} has no empty <div id=\"prerender\"> to fill (index.html keeps one before #app)");
        return ExitCode::from(1);
    };
    if let Err(e) = std::fs::write(&path, out) {
        eprintln!("quota-prerender: cannot write {path}: {e}");
        return ExitCode::from(1);
    }
    eprintln!("quota-prerender: {} bytes of HTML into {path}", html.len());
    ExitCode::SUCCESS
}

/// `page` with its empty `<div id="prerender" ...></div>` (quoted or, as
/// the minifier writes it, not) holding `html` and carrying `attributes`
/// (`name="value" ...`); `None` without that element.
fn insert(page: &str, html: &str, attributes: &str) -> Option<String> {
    let at = page.find("id=\"prerender\"").or_else(|| page.find("id=prerender"))?;
    let open = page[..at].rfind("<div")?;
    let close = at + page[at..].find('>')?;
    let rest = page[close + 1..].strip_prefix("</div>")?;
    let tag = &page[open..close];
    Some(format!("{}{tag} {attributes}>{html}</div>{rest}", &page[..open]))
}

/// `html` with each element's `id` renamed `data-id`: while the app's first
/// render is in the page beside it, a panel's hook that finds its element by
/// id (the simulation's observer of `#simulation`) must find the app's, not
/// this inert copy's. Only attributes are touched: a quote inside a tag
/// opens and closes an attribute value, and text has no raw `<`.
fn without_ids(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + 1024);
    let (mut in_tag, mut in_value) = (false, false);
    let mut rest = html;
    while let Some(c) = rest.chars().next() {
        if in_tag && !in_value && rest.starts_with(" id=\"") {
            out.push_str(" data-id=\"");
            rest = &rest[5..];
            in_value = true;
            continue;
        }
        match c {
            '<' if !in_tag => in_tag = true,
            '>' if in_tag && !in_value => in_tag = false,
            '"' if in_tag => in_value = !in_value,
            _ => {}
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Runs `f` to its end on this thread (the server renderer runs the app on
/// its own runtime and wakes this thread when the HTML is ready).
fn block_on<F: std::future::Future>(f: F) -> F::Output {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut f = std::pin::pin!(f);
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::park();
    }
}

#[cfg(test)]
mod tests {
    use super::{insert, without_ids};

    #[test]
    fn ids_become_data_ids_in_tags_only() {
        assert_eq!(
            without_ids(r#"<section id="answer" class="panel"><p title="a > b id=&quot;x&quot;">say id="q" here</p><input id="w1-start"></section>"#),
            r#"<section data-id="answer" class="panel"><p title="a > b id=&quot;x&quot;">say id="q" here</p><input data-id="w1-start"></section>"#
        );
    }

    #[test]
    fn fills_the_empty_element_quoted_or_minified() {
        let page = r#"<body><div id="boot">x</div><div id="prerender" class="prerender" hidden inert></div><div id="app"></div>"#;
        assert_eq!(
            insert(page, "<main>A</main>", r#"data-link="v1.abc""#).as_deref(),
            Some(r#"<body><div id="boot">x</div><div id="prerender" class="prerender" hidden inert data-link="v1.abc"><main>A</main></div><div id="app"></div>"#)
        );
        // As minify-html writes it (attributes sorted).
        let min = "<div class=prerender hidden id=prerender inert></div><div id=app></div>";
        assert_eq!(
            insert(min, "<p>B</p>", r#"data-link="v1.x""#).as_deref(),
            Some(r#"<div class=prerender hidden id=prerender inert data-link="v1.x"><p>B</p></div><div id=app></div>"#)
        );
        assert_eq!(insert("<div id=app></div>", "<p>B</p>", r#"data-link="v1.x""#), None);
        // Filled already (or not empty): not filled twice.
        assert_eq!(insert(r#"<div id="prerender"><p>old</p></div>"#, "<p>B</p>", r#"data-link="v1.x""#), None);
    }
}
