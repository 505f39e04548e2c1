import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Citations resolve (docs/index.md "Citations"): every `docs/<file>.md "Heading"` in a code comment or a
 * document names a file and headings it has (a cited heading is the start of a real one), every
 * link between documents names a file, headings and an anchor it has, every backticked repository path
 * exists, and every test a rule cites by name is in the test file it names. So a renamed heading,
 * a moved module or a reworded test fails here instead of leaving a citation that leads nowhere.
 */

const root = join(import.meta.dirname, "../..");
const FOLDERS = ["app", "workers", "db", "tenants", "domain", "scripts", "tests", "docs"];


function files(dir: string, keep: (path: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name.startsWith(".")) return [];
    if (statSync(path).isDirectory()) return files(path, keep);
    return keep(path) ? [path] : [];
  });
}

const codeFiles = [
  ...FOLDERS.flatMap((folder) => files(join(root, folder), (p) => /\.(ts|tsx|js)$/.test(p))),
  ...["eslint.config.js", "vitest.config.ts", "vite.config.ts", "react-router.config.ts"].map((name) => join(root, name)),
];
const documents = [...files(join(root, "docs"), (p) => p.endsWith(".md")), join(root, "README.md")];

/** The text of every comment of a module, each joined into one line (a citation may wrap). */
function comments(path: string): { line: number; text: string }[] {
  const text = readFileSync(path, "utf8");
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const seen = new Map<number, { line: number; text: string }>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      const raw = text.slice(range.pos, range.end);
      const joined = raw.replace(/^\/\*\*?|\*\/$|^\/\//g, "").replace(/\n\s*(\*(?!\/)|\/\/)?\s?/g, " ");
      seen.set(range.pos, { line: file.getLineAndCharacterOfPosition(range.pos).line + 1, text: joined });
    }
  };
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.getFullStart()));
    add(ts.getTrailingCommentRanges(text, node.getEnd()));
    ts.forEachChild(node, visit);
  };
  visit(file);
  add(ts.getLeadingCommentRanges(text, file.endOfFileToken.getFullStart()));
  return [...seen.values()];
}

/** A document's lines joined by single spaces (a citation may wrap), and the line of an offset in that text. */
function document(path: string) {
  const lines = readFileSync(path, "utf8").split("\n");
  const starts: number[] = [];
  let text = "";
  for (const line of lines) {
    starts.push(text.length);
    text += `${line.trimStart()} `;
  }
  const lineOf = (offset: number) => starts.findLastIndex((start) => start <= offset) + 1;
  return { text, lineOf };
}

const headingCache = new Map<string, string[]>();
function headingsOf(path: string): string[] {
  let found = headingCache.get(path);
  if (!found) {
    found = [...readFileSync(path, "utf8").matchAll(/^#+\s+(.+?)\s*$/gm)].map((m) => m[1]);
    headingCache.set(path, found);
  }
  return found;
}

/** The anchor a heading gets on GitHub: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replace(/ /g, "-");

interface Finding {
  where: string;
  cited: string;
  problem: string;
}

/** A file and the headings cited in it: `docs/rules/ocpi.md "Pulls", "Token pushes"`. */
const DOC_CITATION = /(docs\/[\w./-]+\.md) "([^"]+)"((?:, "[^"]+")*)/g;
/** A link between documents, `[text "Heading"](../rules/x.md#heading)`. */
const DOC_LINK = /\[([^\]]*)\]\(([^)#\s:]+\.md)(#[^)\s]*)?\)/g;
/** A repository path in backticks, `workers/ocpp/handlers.ts` (placeholders and globs are not paths). */
const REPO_PATH = new RegExp("`((?:" + FOLDERS.join("|") + ")/[^`\\s]+)`", "g");
/** A test file and the tests it is cited for: `tests/unit/format.test.ts` "unit prices and file sizes". */
const TEST_CITATION = /`(tests\/[\w./-]+\.test\.ts)`((?:,? "[^"]+")+)/g;

const quoted = (list: string) => [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]);

function checkHeadings(findings: Finding[], where: string, file: string, headings: string[], cited: string) {
  if (!existsSync(file)) return findings.push({ where, cited, problem: "no such file" });
  const real = headingsOf(file);
  for (const heading of headings) if (!real.some((h) => h.startsWith(heading))) findings.push({ where, cited, problem: `no heading "${heading}"` });
}

function checkAnchor(findings: Finding[], where: string, file: string, anchor: string, cited: string) {
  if (existsSync(file) && !headingsOf(file).map(anchorOf).includes(anchor)) findings.push({ where, cited, problem: `no anchor #${anchor}` });
}

function checkPath(findings: Finding[], where: string, cited: string) {
  if (/[*<>{}$…]/.test(cited)) return;
  const [, path, line] = cited.match(/^(.+?)(?::(\d+)(?:-\d+)?)?[.,;:]?$/)!;
  const full = [path, `${path}.ts`, `${path}.tsx`].map((p) => join(root, p)).find((p) => existsSync(p));
  if (!full) return findings.push({ where, cited, problem: "no such path" });
  if (line && statSync(full).isFile() && Number(line) > readFileSync(full, "utf8").split("\n").length) findings.push({ where, cited, problem: "no such line" });
}

/** Every title of a test file's tests and groups, as patterns: `it.each` titles (`%s`) and template literals match any text there. */
interface Title {
  text: string;
  pattern: RegExp;
}
const titleCache = new Map<string, Title[]>();
function titlesOf(path: string): Title[] {
  let found = titleCache.get(path);
  if (found) return found;
  const text = readFileSync(path, "utf8");
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = (s: string) => escape(s).replace(/%[sdifjo#%]|\\\$\w+(\\\.\w+)*/g, ".+");
  found = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      // it("…"), it.each(…)("…"), describe.skip("…"): the first argument is a title.
      const callee = ts.isCallExpression(node.expression) ? node.expression.expression : node.expression;
      const [title] = node.arguments;
      if (/^(it|test|describe)\b/.test(callee.getText(file)) && title) {
        if (ts.isStringLiteral(title) || ts.isNoSubstitutionTemplateLiteral(title)) found!.push({ text: title.text, pattern: new RegExp(`^${pattern(title.text)}$`) });
        if (ts.isTemplateExpression(title)) {
          const parts = [title.head.text, ...title.templateSpans.map((s) => s.literal.text)];
          found!.push({ text: parts.join(""), pattern: new RegExp(`^${parts.map(pattern).join(".+")}$`) });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  titleCache.set(path, found);
  return found;
}

function checkTests(findings: Finding[], where: string, testFile: string, names: string[]) {
  const full = join(root, testFile);
  if (!existsSync(full)) return findings.push({ where, cited: testFile, problem: "no such path" });
  const titles = titlesOf(full);
  for (const name of names) {
    // "the first words …" cites a long title by its start.
    const start = name.includes("…") ? name.slice(0, name.indexOf("…")).trim() : undefined;
    const matches = titles.some((t) => (start === undefined ? t.pattern.test(name) : t.text.startsWith(start)));
    if (!matches) findings.push({ where, cited: `${testFile} "${name}"`, problem: "no such test" });
  }
}

function checkCode(path: string): Finding[] {
  const findings: Finding[] = [];
  const rel = relative(root, path);
  for (const { line, text } of comments(path)) {
    const where = `${rel}:${line}`;
    for (const m of text.matchAll(DOC_CITATION)) {
      const cited = `${m[1]} "${m[2]}"`;
      checkHeadings(findings, where, join(root, m[1]), [m[2], ...quoted(m[3])], cited);
    }
    for (const m of text.matchAll(REPO_PATH)) checkPath(findings, where, m[1]);
  }
  return findings;
}

function checkDocument(path: string): Finding[] {
  const findings: Finding[] = [];
  const rel = relative(root, path);
  const { text, lineOf } = document(path);
  const at = (m: RegExpMatchArray) => `${rel}:${lineOf(m.index!)}`;
  for (const m of text.matchAll(DOC_CITATION)) checkHeadings(findings, at(m), join(root, m[1]), [m[2], ...quoted(m[3])], m[0]);
  for (const m of text.matchAll(DOC_LINK)) {
    if (/^[a-z]+:/.test(m[2])) continue;
    const target = join(dirname(path), m[2]);
    checkHeadings(findings, at(m), target, quoted(m[1]), m[0]);
    if (m[3]) checkAnchor(findings, at(m), target, m[3].slice(1), m[0]);
  }
  for (const m of text.matchAll(REPO_PATH)) checkPath(findings, at(m), m[1]);
  for (const m of text.matchAll(TEST_CITATION)) checkTests(findings, at(m), m[1], quoted(m[2]));
  return findings;
}

const report = (findings: Finding[]) => findings.map((f) => `${f.where} ${f.cited}: ${f.problem}`);

describe("citations resolve", () => {
  it("finds every cited heading and path of the code's comments", () => {
    expect(report(codeFiles.flatMap(checkCode))).toEqual([]);
  });

  it("finds every cited heading, linked document, path and test of the documents", () => {
    expect(report(documents.flatMap(checkDocument))).toEqual([]);
  });

  it("reports a citation that leads nowhere (the check itself can fail)", () => {
    const findings: Finding[] = [];
    checkHeadings(findings, "probe", join(root, "docs/performance.md"), ["Levers"], 'docs/performance.md "Levers"');
    checkHeadings(findings, "probe", join(root, "docs/performance.md"), ["What changed"], 'docs/performance.md "What changed"');
    checkHeadings(findings, "probe", join(root, "docs/rules/nothing.md"), ["X"], 'docs/rules/nothing.md "X"');
    checkAnchor(findings, "probe", join(root, "docs/rules/tenancy.md"), "the-static-test", "tenancy.md#the-static-test");
    checkAnchor(findings, "probe", join(root, "docs/rules/tenancy.md"), "the-static-tests", "tenancy.md#the-static-tests");
    checkPath(findings, "probe", "workers/jobs/local-list.ts");
    checkPath(findings, "probe", "workers/jobs/push.ts:1");
    checkPath(findings, "probe", "workers/jobs/push.ts:100000");
    checkTests(findings, "probe", "tests/unit/doc-citations.test.ts", ["reports a citation that leads nowhere (the check itself can fail)", "a test nobody wrote"]);
    expect(report(findings)).toEqual([
      'probe docs/performance.md "Levers": no heading "Levers"',
      'probe docs/rules/nothing.md "X": no such file',
      "probe tenancy.md#the-static-tests: no anchor #the-static-tests",
      "probe workers/jobs/local-list.ts: no such path",
      "probe workers/jobs/push.ts:100000: no such line",
      'probe tests/unit/doc-citations.test.ts "a test nobody wrote": no such test',
    ]);
  });
});
