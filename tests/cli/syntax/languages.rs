//! Per language: a realistic breaking edit refused at the line and column of the break,
//! the same edit fixed accepted, and a file that already had an error not gated.

use serde_json::json;

use crate::support::TestWorkspace;

/// One language's case: the file, an edit that breaks it (`old` → `broken`), where the
/// gate places the break, and the fixed edit (`old` → `fixed`).
struct Case {
    path: &'static str,
    language: &'static str,
    text: &'static str,
    old: &'static str,
    broken: &'static str,
    fixed: &'static str,
    at: (u64, u64),
}

// One row a language: a table.
#[rustfmt::skip]
const CASES: &[Case] = &[
    Case { path: "src/lib.rs", language: "rust", text: "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n", old: "    a + b\n", broken: "    (a + b\n", fixed: "    (a + b)\n", at: (2, 11) },
    Case { path: "app.py", language: "python", text: "def f(x):\n    if x:\n        return 1\n    return 2\n", old: "        return 1\n", broken: "        return (1\n", fixed: "        return (1)\n", at: (3, 16) },
    Case { path: "web/app.js", language: "javascript", text: "function f(a) {\n  return a.map((x) => x * 2);\n}\n", old: "x * 2);", broken: "x * 2;", fixed: "x * 3);", at: (2, 28) },
    Case { path: "web/view.jsx", language: "javascript", text: "const V = () => (\n  <div>\n    <span>{1}</span>\n  </div>\n);\n", old: "<span>{1}</span>", broken: "<span>{1</span>", fixed: "<span>{2}</span>", at: (3, 11) },
    Case { path: "src/a.ts", language: "typescript", text: "export function f(a: number): number {\n  const b: number[] = [a, 2];\n  return b[0];\n}\n", old: "[a, 2];", broken: "[a, 2;", fixed: "[a, 3];", at: (2, 28) },
    Case { path: "src/v.tsx", language: "tsx", text: "export const V = (p: { n: number }) => {\n  const m = (p.n + 1);\n  return <b>{m}</b>;\n};\n", old: "(p.n + 1);", broken: "(p.n + 1;", fixed: "(p.n + 2);", at: (2, 21) },
    Case { path: "main.go", language: "go", text: "package main\n\nfunc main() {\n\tx := []int{1, 2}\n\t_ = x\n}\n", old: "{1, 2}", broken: "{1, 2", fixed: "{1, 2, 3}", at: (5, 2) },
    Case { path: "src/A.java", language: "java", text: "class A {\n    int f(int x) {\n        return x + 1;\n    }\n}\n", old: "        return x + 1;\n", broken: "        return (x + 1;\n", fixed: "        return (x + 1);\n", at: (3, 22) },
    Case { path: "a.c", language: "c", text: "int f(int x) {\n    if (x > 0) {\n        return x;\n    }\n    return 0;\n}\n", old: "    if (x > 0) {\n", broken: "    if (x > 0 {\n", fixed: "    if (x >= 0) {\n", at: (2, 14) },
    Case { path: "a.cpp", language: "cpp", text: "#include <vector>\nint f(std::vector<int> v) {\n    return v.size();\n}\n", old: "    return v.size();\n", broken: "    return v.size(;\n", fixed: "    return v.size() + 1;\n", at: (3, 19) },
    Case { path: "A.cs", language: "csharp", text: "class A {\n    int F(int x) {\n        return x * 2;\n    }\n}\n", old: "        return x * 2;\n", broken: "        return (x * 2;\n", fixed: "        return (x * 2);\n", at: (3, 22) },
    Case { path: "lib/a.rb", language: "ruby", text: "def f(x)\n  [x, 2].map { |y| y * 2 }\nend\n", old: "[x, 2]", broken: "[x, 2", fixed: "[x, 3]", at: (2, 3) },
    Case { path: "index.php", language: "php", text: "<?php\nfunction f($x) {\n    return [$x, 2];\n}\n", old: "[$x, 2];", broken: "[$x, 2;", fixed: "[$x, 3];", at: (3, 12) },
    Case { path: "run.sh", language: "bash", text: "#!/bin/sh\nif [ -n \"$1\" ]; then\n  echo \"$1\"\nfi\n", old: "  echo \"$1\"\n", broken: "  echo \"$1\n", fixed: "  echo \"$1!\"\n", at: (2, 1) },
    Case { path: "package.json", language: "json", text: "{\n  \"name\": \"a\",\n  \"version\": \"1.0.0\"\n}\n", old: "\"name\": \"a\",", broken: "\"name\": \"a\"", fixed: "\"name\": \"b\",", at: (2, 3) },
    Case { path: "Cargo.toml", language: "toml", text: "[package]\nname = \"a\"\nversion = \"0.1.0\"\n", old: "name = \"a\"", broken: "name = \"a", fixed: "name = \"b\"", at: (2, 1) },
    Case { path: ".github/ci.yml", language: "yaml", text: "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n", old: "    runs-on: ubuntu-latest\n", broken: "    runs-on: [ubuntu-latest\n", fixed: "    runs-on: [ubuntu-latest]\n", at: (4, 14) },
    Case { path: "index.html", language: "html", text: "<!DOCTYPE html>\n<html>\n<body>\n<p class=\"a\">hi</p>\n</body>\n</html>\n", old: "<p class=\"a\">hi</p>", broken: "<p class=\"a>hi</p>", fixed: "<p class=\"b\">hi</p>", at: (2, 1) },
    Case { path: "site.css", language: "css", text: "a {\n  color: red;\n}\nb {\n  margin: 0;\n}\n", old: "a {\n", broken: "a \n", fixed: "a, i {\n", at: (2, 8) },
];

/// The break is refused where it is, and nothing changes; by flags for every language.
#[test]
fn a_break_is_refused_at_its_line_and_column() {
    for case in CASES {
        let ws = TestWorkspace::new();
        ws.file(case.path, case.text);
        let run = ws.run(&["edit", case.path, "--old", case.old, "--new", case.broken]);
        let details = run.refused("SYNTAX_ERROR");
        let at = (details["line"].as_u64(), details["column"].as_u64());
        assert_eq!(
            at,
            (Some(case.at.0), Some(case.at.1)),
            "{}: {details}",
            case.path
        );
        assert_eq!(details["language"], case.language, "{}", case.path);
        assert_eq!(details["path"], case.path);
        let excerpt = details["excerpt"].as_str().unwrap();
        let caret = excerpt.lines().nth(1).unwrap();
        assert_eq!(
            caret.chars().count() as u64,
            case.at.1,
            "{}: {excerpt}",
            case.path
        );
        assert!(
            details["expected"].is_string() || details["found"].is_string(),
            "{}: {details}",
            case.path
        );
        assert_eq!(ws.read_string(case.path), case.text, "{}", case.path);
    }
}

/// The same edit, fixed, is applied and says nothing of syntax.
#[test]
fn the_fixed_edit_is_applied() {
    for case in CASES {
        let ws = TestWorkspace::new();
        ws.file(case.path, case.text);
        let args = json!({"path": case.path, "oldText": case.old, "newText": case.fixed});
        let data = ws.stitch("edit", &args).ok().clone();
        assert_eq!(data["applied"], true, "{}", case.path);
        assert!(data.get("syntaxErrors").is_none(), "{}: {data}", case.path);
        assert_eq!(
            ws.read_string(case.path),
            case.text.replacen(case.old, case.fixed, 1)
        );
    }
}

/// A file that already had an error is not gated: a change that leaves it broken lands.
#[test]
fn a_file_already_broken_is_not_gated() {
    for case in CASES {
        let ws = TestWorkspace::new();
        let broken = case.text.replacen(case.old, case.broken, 1);
        ws.file(case.path, &broken);
        let content = format!("{broken}\n");
        let args = json!({"path": case.path, "content": content, "overwrite": true});
        let data = ws.stitch("write", &args).ok().clone();
        assert_eq!(data["applied"], true, "{}", case.path);
        assert!(data.get("syntaxErrors").is_none(), "{}: {data}", case.path);
        assert_eq!(ws.read_string(case.path), content);
        // The same content as a new file is gated on its own.
        let args =
            json!({"path": format!("new-{}", case.path.replace('/', "-")), "content": content});
        ws.stitch("write", &args).refused("SYNTAX_ERROR");
    }
}
