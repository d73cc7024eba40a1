/** The longest functions in src (non-test .ts): declarations, arrow functions, function expressions, methods. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = process.argv[2] ?? 'src';
const top = Number(process.argv[3] ?? 10);
const out: { lines: number; where: string; name: string }[] = [];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return walk(p);
    return e.name.endsWith('.ts') && !/\.(test|d)\.ts$/.test(e.name) ? [p] : [];
  });
}

function nameOf(node: ts.Node): string {
  const n = (node as { name?: ts.Node }).name;
  if (n && ts.isIdentifier(n)) return n.text;
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isPropertyAssignment(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isCallExpression(p)) return `(callback of ${p.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

for (const file of walk(root)) {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isMethodDeclaration(node)
    ) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ lines: end - start + 1, where: `${relative('.', file)}:${start + 1}`, name: nameOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
out.sort((a, b) => b.lines - a.lines);
for (const f of out.slice(0, top)) console.log(`${String(f.lines).padStart(5)}  ${f.name}  ${f.where}`);
