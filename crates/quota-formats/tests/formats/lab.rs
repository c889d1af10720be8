//! Every `$ kafka-configs.sh ...` command of the lab article, run in order
//! against one store in strict mode, prints exactly what the article shows
//! under it (stdout for successes, the tool's message for failures).

use quota_engine::QuotaStore;
use quota_formats::configs_sh::{parse_command, Mode};

use crate::common::read_fixture;

/// (command line, expected output lines) in article order.
pub fn lab_commands() -> Vec<(String, Vec<String>)> {
    let text = read_fixture("seed/kafka-client-quotas-lab.txt");
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some(cmd) = lines[i].strip_prefix("$ ") {
            if cmd.starts_with("kafka-configs.sh ") {
                let mut expected = Vec::new();
                let mut j = i + 1;
                while j < lines.len() && !lines[j].trim().is_empty() && !lines[j].starts_with("$ ")
                {
                    expected.push(lines[j].to_owned());
                    j += 1;
                }
                out.push((cmd.to_owned(), expected));
                i = j;
                continue;
            }
        }
        i += 1;
    }
    out
}

#[test]
fn lab_commands_reproduce_the_article_output() {
    let commands = lab_commands();
    assert_eq!(
        commands.len(),
        8,
        "the article has eight kafka-configs.sh runs"
    );
    let mut store = QuotaStore::new();
    for (cmd, expected) in &commands {
        let printed: Vec<String> =
            match parse_command(cmd, Mode::Strict).and_then(|c| c.apply(&mut store)) {
                Ok(lines) => lines,
                Err(e) => vec![e
                    .tool_stderr()
                    .unwrap_or_else(|| panic!("{cmd}: not a tool error: {e}"))
                    .to_owned()],
            };
        assert_eq!(&printed, expected, "command: {cmd}");
    }
}
