import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { PLAZA_MODULES, type PortContract } from '@plaza/server';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/**
 * Where each port of packages/domain is pinned down: the contract suites (run against the in-memory
 * fake and the SQL adapter by test/contracts) and the name the suites call the port by
 * (`ports.groups.updateMessage(…)` or `groups.updateMessage(…)` → `groups`).
 * A port is an interface with a same-named `token<…>()` constant. Every port must be listed: a port
 * with a SQL adapter names its suites, a port without one says so (and the test checks it has none).
 * Each context's module lists its own ports in its face (`ports`, docs/decisions/0130); this test
 * collects them, so a new context adds its ports beside its bindings, not here.
 */
type Coverage = PortContract;

const SUITES = 'packages/domain/src';

/** The modules' ports as one table, suites named from the repository root; a port two modules claim is a problem. */
function collectCoverage(modules: readonly { face: { name: string; ports?: Readonly<Record<string, PortContract>> } }[]) {
  const table: Record<string, Coverage> = {};
  const owner: Record<string, string> = {};
  const problems: string[] = [];
  for (const { face } of modules) {
    for (const [port, coverage] of Object.entries(face.ports ?? {})) {
      if (owner[port]) problems.push(`${port} is listed by both ${owner[port]} and ${face.name}: one module owns a port`);
      owner[port] = face.name;
      table[port] = coverage === 'no SQL adapter' ? coverage : { ...coverage, suites: coverage.suites.map((path) => `${SUITES}/${path}`) };
    }
  }
  return { table, problems };
}

interface Source {
  path: string;
  text: string;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.d\.ts$/.test(name) ? [path] : [];
  });
}

const read = (path: string): Source => ({ path: relative(root, path), text: readFileSync(path, 'utf8') });
const parse = (s: Source) => ts.createSourceFile(s.path, s.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

function visit(node: ts.Node, f: (n: ts.Node) => void) {
  f(node);
  node.forEachChild((child) => visit(child, f));
}

/** Ports declared in these files: each interface that has a same-named `token<…>()` constant, with its method names. */
function portsIn(files: Source[]): Map<string, { file: string; methods: string[] }> {
  const interfaces = new Map<string, { file: string; decl: ts.InterfaceDeclaration }>();
  const tokens = new Set<string>();
  for (const file of files) {
    visit(parse(file), (n) => {
      if (ts.isInterfaceDeclaration(n)) interfaces.set(n.name.text, { file: file.path, decl: n });
      if (
        ts.isVariableDeclaration(n) &&
        ts.isIdentifier(n.name) &&
        n.initializer &&
        ts.isCallExpression(n.initializer) &&
        ts.isIdentifier(n.initializer.expression) &&
        n.initializer.expression.text === 'token'
      ) {
        tokens.add(n.name.text);
      }
    });
  }
  const methodsOf = (name: string): string[] => {
    const found = interfaces.get(name);
    if (!found) throw new Error(`interface ${name} not found in the domain sources`);
    const own = found.decl.members.flatMap((m) => {
      const isMethod = ts.isMethodSignature(m) || (ts.isPropertySignature(m) && m.type !== undefined && ts.isFunctionTypeNode(m.type));
      return isMethod && m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? [m.name.text] : [];
    });
    // Methods a port inherits from another domain interface count as its own.
    const inherited = (found.decl.heritageClauses ?? []).flatMap((h) =>
      h.types.flatMap((t) => (ts.isIdentifier(t.expression) ? methodsOf(t.expression.text) : [])),
    );
    return [...new Set([...inherited, ...own])];
  };
  const ports = new Map<string, { file: string; methods: string[] }>();
  for (const name of tokens) {
    if (interfaces.has(name)) ports.set(name, { file: interfaces.get(name)!.file, methods: methodsOf(name) });
  }
  return ports;
}

/** Methods called on `via` in these suites: `via.m(…)` or `something.via.m(…)`; comments and strings do not count. */
function methodsCalled(suites: Source[], via: string): Set<string> {
  const called = new Set<string>();
  for (const suite of suites) {
    visit(parse(suite), (n) => {
      if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression)) return;
      const receiver = n.expression.expression;
      const receiverName = ts.isIdentifier(receiver) ? receiver.text : ts.isPropertyAccessExpression(receiver) ? receiver.name.text : null;
      if (receiverName === via) called.add(n.expression.name.text);
    });
  }
  return called;
}

/** Port names that a class in these files declares it implements. */
function implementedIn(files: Source[]): Set<string> {
  const out = new Set<string>();
  for (const file of files) {
    visit(parse(file), (n) => {
      if (!ts.isClassDeclaration(n)) return;
      for (const clause of n.heritageClauses ?? []) {
        if (clause.token !== ts.SyntaxKind.ImplementsKeyword) continue;
        for (const t of clause.types) if (ts.isIdentifier(t.expression)) out.add(t.expression.text);
      }
    });
  }
  return out;
}

/** Everything wrong with the coverage of these ports by these suites; empty when every method is pinned down. */
function coverageProblems(input: {
  ports: Map<string, { file: string; methods: string[] }>;
  table: Record<string, Coverage>;
  suite: (path: string) => Source;
  sqlImplemented: Set<string>;
}): string[] {
  const problems: string[] = [];
  for (const [name, port] of input.ports) {
    const coverage = input.table[name];
    if (coverage === undefined) {
      problems.push(`${name} (${port.file}) is missing from its module's ports: name its contract suite there (docs/decisions/0130)`);
      continue;
    }
    if (coverage === 'no SQL adapter') {
      if (input.sqlImplemented.has(name)) problems.push(`${name} has a SQL adapter now: give it a contract suite in its module's ports`);
      continue;
    }
    const called = methodsCalled(coverage.suites.map(input.suite), coverage.via);
    for (const method of port.methods) {
      if (!called.has(method))
        problems.push(
          `${name}.${method} is called by no contract test (${coverage.suites.join(', ')}; looked for ${coverage.via}.${method}(…))`,
        );
    }
  }
  for (const name of Object.keys(input.table)) {
    if (!input.ports.has(name)) problems.push(`a module's ports list ${name}, which is no longer a port`);
  }
  return problems;
}

describe('contract coverage', () => {
  it('calls every method of every port with a SQL adapter from its contract suite', () => {
    const domain = sources(join(root, 'packages/domain/src'))
      .filter((f) => !f.endsWith('.test.ts') && !relative(root, f).split('/').includes('testing'))
      .map(read);
    const ports = portsIn(domain);
    // Guards the guard: the ports the table was written for are still found, with their methods.
    expect(ports.get('MessageGroupRepository')?.methods).toContain('updateMessage');
    expect(ports.get('ProfileStatsReader')?.methods).toEqual(['profileOf']);
    const collected = collectCoverage(PLAZA_MODULES);
    expect(collected.problems).toEqual([]);
    expect(Object.keys(collected.table).length).toBeGreaterThan(70);
    const problems = coverageProblems({
      ports,
      table: collected.table,
      suite: (path) => read(join(root, path)),
      sqlImplemented: implementedIn(sources(join(root, 'packages/adapters-mysql/src')).map(read)),
    });
    expect(problems).toEqual([]);
  });

  it('collects the ports from the modules, and refuses a port two modules claim', () => {
    const widgets = { name: 'widgets', ports: { WidgetRepository: { suites: ['widgets/testing/widgets.contract.ts'], via: 'widgets' } } };
    const gadgets = { name: 'gadgets', ports: { WidgetRepository: 'no SQL adapter' as const, GadgetStore: 'no SQL adapter' as const } };
    const { table, problems } = collectCoverage([{ face: widgets }, { face: gadgets }, { face: { name: 'bare' } }]);
    expect(Object.keys(table).sort()).toEqual(['GadgetStore', 'WidgetRepository']);
    expect(collectCoverage([{ face: widgets }]).table.WidgetRepository).toEqual({
      suites: ['packages/domain/src/widgets/testing/widgets.contract.ts'],
      via: 'widgets',
    });
    expect(problems).toEqual(['WidgetRepository is listed by both widgets and gadgets: one module owns a port']);
  });

  it('catches an uncovered method, an unlisted port, an adapter without a suite and a stale entry', () => {
    const domain: Source[] = [
      {
        path: 'widgets/ports.ts',
        text: `
          import { token } from '../shared/token.js';
          interface Named { rename(id: number, name: string): Promise<void>; }
          export interface WidgetRepository extends Named {
            create(name: string): Promise<number>;
            /** Archived widgets are hidden. */
            archive(id: number): Promise<void>;
            findById: (id: number) => Promise<{ id: number } | null>;
            readonly label: string;
          }
          export const WidgetRepository = token<WidgetRepository>('WidgetRepository');
          export interface GadgetStore { put(key: string): Promise<void>; }
          export const GadgetStore = token<GadgetStore>('GadgetStore');
          export interface Sprocket { spin(): void; }
          export const Sprocket = token<Sprocket>('Sprocket');
          export interface WidgetView { id: number; }`,
      },
    ];
    const suite: Source = {
      path: 'widgets/testing/widgets.contract.ts',
      text: `
        it('creates and finds', async () => {
          const id = await ports.widgets.create('w');
          expect(await widgets.findById(id)).not.toBeNull();
          await widgets.rename(id, 'x');
          // widgets.archive(id) is not exercised, and neither is this:
          const text = 'widgets.archive(id)';
          await gadgets.archive(id);
        });`,
    };
    const ports = portsIn(domain);
    expect([...ports.keys()].sort()).toEqual(['GadgetStore', 'Sprocket', 'WidgetRepository']);
    expect(ports.get('WidgetRepository')?.methods.sort()).toEqual(['archive', 'create', 'findById', 'rename']);
    const problems = coverageProblems({
      ports,
      table: { WidgetRepository: { suites: [suite.path], via: 'widgets' }, Sprocket: 'no SQL adapter', Gizmo: 'no SQL adapter' },
      suite: () => suite,
      sqlImplemented: implementedIn([{ path: 'sql-sprocket.ts', text: 'export class SqlSprocket implements Sprocket { spin() {} }' }]),
    });
    expect(problems).toEqual([
      expect.stringMatching(/^WidgetRepository\.archive is called by no contract test/),
      expect.stringMatching(/^GadgetStore .* is missing from its module's ports/),
      expect.stringMatching(/^Sprocket has a SQL adapter now/),
      expect.stringMatching(/^a module's ports list Gizmo, which is no longer a port/),
    ]);
  });
});
