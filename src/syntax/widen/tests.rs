//! The regions of changes, per family of layout: braces (C, Java, C# with its braces on
//! lines of their own, Rust), indentation (Python, YAML), closing words (Ruby, Bash),
//! JSON's commas and PHP's opening tag; and what makes a change go to the whole file.

use super::excerpts;
use crate::syntax::{check, Bounds, Finding, Language, Pass};

/// The result's excerpts of the change from `old` to `new` (with `from` → `to` replaced
/// once), each parsed, or `None` when the change is checked whole.
fn cut(language: Language, old: &str, from: &str, to: &str) -> Option<Vec<String>> {
    assert!(old.contains(from), "{from:?}");
    let new = old.replacen(from, to, 1);
    let excerpts = excerpts(language, old.as_bytes(), new.as_bytes())?;
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&language.grammar()).unwrap();
    Some(
        excerpts
            .iter()
            .map(|e| {
                for text in [&e.new, &e.old] {
                    let tree = parser.parse(text, None).unwrap();
                    assert!(
                        !tree.root_node().has_error(),
                        "{}",
                        String::from_utf8_lossy(text)
                    );
                }
                String::from_utf8(e.new.clone()).unwrap()
            })
            .collect(),
    )
}

/// `count` units made by `unit` from their number, joined by `between`.
fn units(count: usize, between: &str, unit: impl Fn(usize) -> String) -> String {
    (1..=count).map(unit).collect::<Vec<_>>().join(between)
}

#[test]
fn braces_take_the_lines_that_open_and_close_the_blocks_around() {
    let java = format!(
        "class A {{\n{}}}\n",
        units(12, "\n", |n| format!(
            "    int f{n}() {{\n        return {n};\n    }}\n"
        ))
    );
    assert_eq!(
        cut(Language::Java, &java, "return 3;", "return 30;"),
        Some(vec![
            "class A {\n    int f3() {\n        return 30;\n    }\n}\n".to_owned()
        ])
    );
    // A method's head: the item before and after it, the lines inside their blocks
    // left out.
    assert_eq!(
        cut(Language::Java, &java, "int f3()", "long f3()"),
        Some(vec![format!(
            "class A {{\n{}}}\n",
            [
                "    int f2() {\n    }\n\n",
                "    long f3() {\n        return 3;\n    }\n\n",
                "    int f4() {\n    }\n\n"
            ]
            .concat()
        )])
    );
    // Braces on lines of their own: the opening brace takes in its head.
    let csharp = format!(
        "class A\n{{\n{}}}\n",
        units(6, "\n", |n| format!(
            "    int F{n}()\n    {{\n        return {n};\n    }}\n"
        ))
    );
    assert_eq!(
        cut(Language::CSharp, &csharp, "return 3;", "return 30;"),
        Some(vec![
            "class A\n{\n    int F3()\n    {\n        return 30;\n    }\n}\n".to_owned()
        ])
    );
    // `} else {` takes in its `if`, and of a closing `} else {` only the `}` is taken.
    let c = units(6, "\n", |n| {
        format!("int f{n}(int x) {{\n    if (x) {{\n        x = {n};\n    }} else {{\n        x = 0;\n    }}\n    return x;\n}}\n")
    });
    assert_eq!(
        cut(
            Language::C,
            &c,
            "x = 0;\n    }\n    return x;\n}\n\nint f4",
            "x = 1;\n    }\n    return x;\n}\n\nint f4"
        ),
        Some(vec![
            "int f3(int x) {\n    if (x) {\n        x = 3;\n    } else {\n        x = 1;\n    }\n}\n"
                .to_owned()
        ])
    );
    assert_eq!(
        cut(Language::C, &c, "x = 3;", "x = 31;"),
        Some(vec![
            "int f3(int x) {\n    if (x) {\n        x = 31;\n} \n}\n".to_owned()
        ])
    );
}

#[test]
fn indentation_closes_blocks_by_itself() {
    let python = format!(
        "import os\n\n\nclass A:\n{}",
        units(12, "\n", |n| format!(
            "    def f{n}(self):\n        return {n}\n"
        ))
    );
    assert_eq!(
        cut(Language::Python, &python, "def f3(self)", "def f3(self, x)"),
        Some(vec!["class A:\n    def f2(self):\n        return 2\n\n    def f3(self, x):\n        return 3\n\n    def f4(self):\n        return 4\n\n".to_owned()])
    );
    let yaml = format!(
        "jobs:\n{}",
        units(4, "", |n| {
            format!("  job{n}:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: make test{n}\n      - run: make lint{n}\n")
        })
    );
    assert_eq!(
        cut(Language::Yaml, &yaml, "make test2", "make check2"),
        Some(vec!["jobs:\n  job2:\n    steps:\n      - uses: actions/checkout@v4\n      - run: make check2\n      - run: make lint2\n".to_owned()])
    );
}

#[test]
fn closing_words_close_blocks() {
    let ruby = format!(
        "module M\n  class A\n{}  end\nend\n",
        units(6, "\n", |n| format!("    def f{n}\n      {n}\n    end\n"))
    );
    assert_eq!(
        cut(Language::Ruby, &ruby, "      3\n", "      30\n"),
        Some(vec![
            "module M\n  class A\n    def f3\n      30\n    end\n  end\nend\n".to_owned()
        ])
    );
    let bash = units(6, "\n", |n| {
        format!("f{n}() {{\n  if [ -n \"$1\" ]; then\n    echo {n}\n  fi\n}}\n")
    });
    assert_eq!(
        cut(Language::Bash, &bash, "echo 3", "echo 30"),
        Some(vec![
            "f3() {\n  if [ -n \"$1\" ]; then\n    echo 30\n  fi\n}\n".to_owned()
        ])
    );
}

#[test]
fn json_leaves_out_the_commas_before_what_it_leaves_out() {
    let json = format!(
        "{{\n  \"a\": [\n{}\n  ],\n  \"b\": {{\n    \"c\": 1\n  }}\n}}\n",
        units(12, ",\n", |n| format!("    {n}"))
    );
    assert_eq!(
        cut(Language::Json, &json, "    3,", "    30,"),
        Some(vec![
            "{\n  \"a\": [\n    2,\n    30,\n    4\n  ]\n}\n".to_owned()
        ])
    );
}

#[test]
fn php_regions_open_with_the_tag_and_only_when_php_throughout() {
    let php = format!(
        "<?php\n\n{}",
        units(6, "\n", |n| format!(
            "function f{n}() {{\n    return {n};\n}}\n"
        ))
    );
    assert_eq!(
        cut(Language::Php, &php, "return 3;", "return 30;"),
        Some(vec![
            "<?php\nfunction f3() {\n    return 30;\n}\n".to_owned()
        ])
    );
    let html_too = format!("{php}?>\n<p>hi</p>\n");
    assert_eq!(
        cut(Language::Php, &html_too, "return 3;", "return 30;"),
        None
    );
}

#[test]
fn separate_changes_are_separate_regions() {
    let rust = units(12, "\n", |n| format!("fn f{n}() -> i32 {{\n    {n}\n}}\n"));
    let old = rust.replace("    3\n", "    30\n");
    let excerpts = cut(Language::Rust, &old, "    10\n", "    100\n").unwrap();
    assert_eq!(excerpts.len(), 1);
    let new = rust
        .replace("    3\n", "    30\n")
        .replace("    10\n", "    100\n");
    let both = excerpts_of(Language::Rust, &rust, &new);
    assert_eq!(
        both,
        vec![
            "fn f3() -> i32 {\n    30\n}\n",
            "fn f10() -> i32 {\n    100\n}\n"
        ]
    );
}

fn excerpts_of(language: Language, old: &str, new: &str) -> Vec<String> {
    excerpts(language, old.as_bytes(), new.as_bytes())
        .unwrap()
        .into_iter()
        .map(|e| String::from_utf8(e.new).unwrap())
        .collect()
}

#[test]
fn what_goes_to_the_whole_file() {
    // A small file: the region would be most of it.
    let small = "fn a() {}\nfn b() {}\n";
    assert_eq!(cut(Language::Rust, small, "fn b", "fn c"), None);
    // No change.
    let rust = units(12, "\n", |n| format!("fn f{n}() -> i32 {{\n    {n}\n}}\n"));
    assert!(excerpts(Language::Rust, rust.as_bytes(), rust.as_bytes()).is_none());
    // A tab where the rest has spaces counts as deeper than four spaces: it neither
    // ends a region at that indentation nor opens a block around one.
    let mixed = rust.replace("    3\n", "\t3\n");
    assert_eq!(
        cut(Language::Rust, &mixed, "\t3\n", "\t30\n"),
        Some(vec!["fn f3() -> i32 {\n\t30\n}\n".to_owned()])
    );
    assert_eq!(
        cut(Language::Rust, &mixed, "    4\n", "    40\n"),
        Some(vec!["fn f4() -> i32 {\n    40\n}\n".to_owned()])
    );
}

#[test]
fn a_change_whose_regions_parse_passes_and_a_break_is_judged_whole() {
    let rust = units(12, "\n", |n| format!("fn f{n}() -> i32 {{\n    {n}\n}}\n"));
    let new = rust.replace("    3\n", "    (3)\n");
    assert_eq!(
        check(
            "a.rs",
            Some(rust.as_bytes()),
            new.as_bytes(),
            Bounds::default()
        ),
        Finding::Pass(Pass::RegionParses)
    );
    let broken = rust.replace("    3\n", "    (3\n");
    let Finding::Broken(_, error) = check(
        "a.rs",
        Some(rust.as_bytes()),
        broken.as_bytes(),
        Bounds::default(),
    ) else {
        panic!("not refused");
    };
    assert_eq!((error.line, error.what()), (10, "missing \")\"".to_owned()));
}

/// The namespace's closing brace deleted: the region around it parses in the result,
/// but not in the file as it was (a `}` of a block opened before the region), so the
/// whole result is parsed, and the break found.
#[test]
fn an_error_only_the_file_as_it_was_shows_is_judged_whole() {
    let old = format!(
        "namespace n {{\n\n{}\n}}  // namespace n\n\n{}",
        units(6, "\n", |n| format!("int a{n}() {{ return {n}; }}\n")),
        units(6, "\n", |n| format!("int b{n}() {{ return {n}; }}\n"))
    );
    let new = old.replace("}  // namespace n\n", "");
    let excerpts = excerpts(Language::Cpp, old.as_bytes(), new.as_bytes()).unwrap();
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&Language::Cpp.grammar()).unwrap();
    let mut parses = |text: &[u8]| !parser.parse(text, None).unwrap().root_node().has_error();
    assert!(excerpts.iter().all(|e| parses(&e.new)));
    assert!(!excerpts.iter().all(|e| parses(&e.old)));
    assert!(matches!(
        check(
            "a.cpp",
            Some(old.as_bytes()),
            new.as_bytes(),
            Bounds::default()
        ),
        Finding::Broken(..)
    ));
}

#[test]
fn the_changed_lines_are_named_in_both_texts() {
    use super::{hunks, ChangedRun};
    use crate::syntax::layout::LineIndex;
    let runs = |old: &str, new: &str| {
        let (old, new) = (
            LineIndex::new(old.as_bytes(), Language::Rust),
            LineIndex::new(new.as_bytes(), Language::Rust),
        );
        hunks(&old, &new).map(|h| {
            h.into_iter()
                .map(|ChangedRun { old, new }| (old, new))
                .collect::<Vec<_>>()
        })
    };
    assert_eq!(runs("abc\n", "xabc\n"), Some(vec![(0..1, 0..1)]));
    assert_eq!(runs("a\nb\nc\n", "a\nX\nb\nc\n"), Some(vec![(0..1, 0..2)]));
    assert_eq!(runs("a\nb\nc\n", "a\nc\n"), Some(vec![(0..2, 0..1)]));
    assert_eq!(runs("a\nb\nc\n", "a\nb\nc\nd\n"), Some(vec![(2..3, 2..4)]));
    assert_eq!(runs("a\nb", "a\nb\n"), Some(vec![(1..2, 1..2)]));
    assert_eq!(runs("a\n", "a\n"), Some(vec![]));
    assert_eq!(runs("", "a\n"), Some(vec![(0..1, 0..1)]));
    let old = "a\nb\nc\nd\ne\nf\ng\n";
    let new = "a\nB\nc\nd\ne\nF\ng\n";
    assert_eq!(runs(old, new), Some(vec![(1..2, 1..2), (5..6, 5..6)]));
}

#[test]
fn the_items_either_side_keep_their_blocks_edges_alone() {
    // Braces on lines of their own, and `} else {`: each block of the items either side
    // is its opening and closing lines.
    let csharp = format!(
        "class A\n{{\n{}}}\n",
        units(12, "\n", |n| {
            format!(
            "    int F{n}(int x)\n    {{\n        if (x > 0) {{\n            return {n};\n        }} else {{\n            return 0;\n        }}\n    }}\n"
        )
        })
    );
    assert_eq!(
        cut(Language::CSharp, &csharp, "int F3(int x)", "long F3(int x)"),
        Some(vec![format!(
            "class A\n{{\n{}}}\n",
            [
                "    int F2(int x)\n    {\n    }\n\n",
                "    long F3(int x)\n    {\n        if (x > 0) {\n            return 3;\n        } else {\n            return 0;\n        }\n    }\n\n",
                "    int F4(int x)\n    {\n    }\n\n"
            ]
            .concat()
        )])
    );
    // A statement of the changed function beside the change: its `if` and `else`
    // blocks kept empty.
    let c = units(6, "\n", |n| {
        format!("int f{n}(int x) {{\n    if (x) {{\n        x = {n};\n    }} else {{\n        x = 0;\n    }}\n    return x;\n}}\n")
    });
    assert_eq!(
        cut(
            Language::C,
            &c,
            "    return x;\n}\n\nint f4",
            "    return -x;\n}\n\nint f4"
        ),
        Some(vec![
            "int f3(int x) {\n    if (x) {\n    } else {\n    }\n    return -x;\n}\n".to_owned()
        ])
    );
    // A block whose opening line leaves a template literal open is not a block: kept.
    let ts = format!(
        "{}const t = `${{a}} {{\n  b\n}}`;\nlet y = 1;\n",
        units(8, "", |n| format!("let x{n} = {n};\n"))
    );
    assert_eq!(
        cut(Language::TypeScript, &ts, "let y = 1;", "let y = 2;"),
        Some(vec![
            "let x8 = 8;\nconst t = `${a} {\n  b\n}`;\nlet y = 2;\n".to_owned()
        ])
    );
    // A closing word closes the block the line before the deeper ones opened.
    let ruby = format!(
        "class A\n{}end\n",
        units(12, "\n", |n| format!(
            "  def f{n}(x)\n    if x\n      {n}\n    end\n  end\n"
        ))
    );
    assert_eq!(
        cut(Language::Ruby, &ruby, "def f3(x)", "def g3(x)"),
        Some(vec![
            "class A\n  def f2(x)\n  end\n\n  def g3(x)\n    if x\n      3\n    end\n  end\n\n  def f4(x)\n  end\n\nend\n"
                .to_owned()
        ])
    );
    // Bash's braces may not be empty: nothing is left out.
    let bash = units(12, "\n", |n| format!("f{n}() {{\n  echo {n}\n}}\n"));
    assert_eq!(
        cut(Language::Bash, &bash, "f3() {", "g3() {"),
        Some(vec![
            "f2() {\n  echo 2\n}\n\ng3() {\n  echo 3\n}\n\nf4() {\n  echo 4\n}\n\n".to_owned()
        ])
    );
}

/// What the items either side are there for is still seen with their insides left out:
/// a comma the change takes away from between two objects, a block it leaves open.
#[test]
fn a_break_at_the_edge_of_an_item_either_side_is_still_judged_whole() {
    let json = format!(
        "[\n{}\n]\n",
        units(12, ",\n", |n| format!(
            "  {{\n    \"id\": {n},\n    \"tags\": [\"a\"]\n  }}"
        ))
    );
    let no_comma = json.replacen(
        "\"tags\": [\"a\"]\n  },\n  {\n    \"id\": 4",
        "\"tags\": [\"b\"]\n  }\n  {\n    \"id\": 4",
        1,
    );
    assert_ne!(no_comma, json);
    let excerpts = excerpts(Language::Json, json.as_bytes(), no_comma.as_bytes()).unwrap();
    let texts: Vec<_> = excerpts
        .iter()
        .map(|e| String::from_utf8_lossy(&e.new))
        .collect();
    assert_eq!(
        texts,
        ["[\n  {\n  },\n  {\n    \"id\": 3,\n    \"tags\": [\"b\"]\n  }\n  {\n  }\n]\n"]
    );
    assert!(matches!(
        check(
            "a.json",
            Some(json.as_bytes()),
            no_comma.as_bytes(),
            Bounds::default()
        ),
        Finding::Broken(..)
    ));
    let rust = units(12, "\n", |n| {
        format!("fn f{n}() -> i32 {{\n    let x = {n};\n    x\n}}\n")
    });
    let open = rust.replacen("    x\n}\n\nfn f4", "    x\n\nfn f4", 1);
    assert!(matches!(
        check(
            "a.rs",
            Some(rust.as_bytes()),
            open.as_bytes(),
            Bounds::default()
        ),
        Finding::Broken(..)
    ));
}
