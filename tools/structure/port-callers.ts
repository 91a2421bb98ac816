import path from 'node:path';
import ts from 'typescript';

/**
 * Who calls each member of a storage port: the port's interface, the interfaces its members
 * hand out (`store.facts`, `snapshot()`'s answer, `limits.scoped`), and every place a member is
 * read through one of them, by the type checker, not by name. A member only tests read is a test
 * fixture drawn into the product's port.
 */

/** Where a file stands: the product, its tests and test helpers, or tooling beside it. */
export type FileRole = 'product' | 'test' | 'tooling';

export interface PortMember {
  /** `Interface.member` */
  name: string;
  /** Files that read the member, relative to the project root, by role. */
  callers: Record<FileRole, string[]>;
}

const TEST_FILE = /(^|\/)(test|testing)\/|\.test\.tsx?$/;
const PRODUCT_ROOTS = ['server/', 'src/', 'contracts/'];

export function fileRole(relative: string): FileRole {
  if (TEST_FILE.test(relative)) return 'test';
  return PRODUCT_ROOTS.some((root) => relative.startsWith(root)) ? 'product' : 'tooling';
}

/** The project's program, as `npm run typecheck` builds it. */
export function loadProgram(root: string): ts.Program {
  const configPath = path.join(root, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root);
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
}

/** The interface a type names, when it is one with methods (a store, not a record it returns). */
function portDeclaration(
  checker: ts.TypeChecker,
  type: ts.Type,
): ts.InterfaceDeclaration | undefined {
  const declaration = type.getSymbol()?.getDeclarations()?.[0];
  if (!declaration || !ts.isInterfaceDeclaration(declaration)) return undefined;
  const hasMethods = type
    .getProperties()
    .some(
      (property) =>
        checker.getTypeOfSymbolAtLocation(property, declaration).getCallSignatures().length > 0,
    );
  return hasMethods ? declaration : undefined;
}

/**
 * The port's interfaces: `root`, and every interface with methods declared in `portDir` that a
 * member's type or a method's (awaited) answer names, recursively. Records the port returns
 * (`RunBatchResult`) are data, not members of the port.
 */
function portInterfaces(
  checker: ts.TypeChecker,
  root: ts.InterfaceDeclaration,
  portDir: string,
): ts.InterfaceDeclaration[] {
  const found = new Map<string, ts.InterfaceDeclaration>();
  const visit = (declaration: ts.InterfaceDeclaration) => {
    const name = declaration.name.text;
    if (found.has(name)) return;
    found.set(name, declaration);
    const type = checker.getTypeAtLocation(declaration.name);
    for (const property of type.getProperties()) {
      const propertyType = checker.getNonNullableType(
        checker.getTypeOfSymbolAtLocation(property, declaration),
      );
      const answers = propertyType
        .getCallSignatures()
        .map((signature) => checker.getAwaitedType(signature.getReturnType()))
        .filter((answer): answer is ts.Type => answer !== undefined);
      for (const candidate of [propertyType, ...answers]) {
        const next = portDeclaration(checker, candidate);
        if (next && path.dirname(next.getSourceFile().fileName) === portDir) visit(next);
      }
    }
  };
  visit(root);
  return [...found.values()];
}

/** Every member of the port named `interfaceName` in `portFile`, with its readers by role. */
export function portMemberCallers(
  program: ts.Program,
  root: string,
  portFile: string,
  interfaceName: string,
): PortMember[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path.resolve(root, portFile));
  if (!source) throw new Error(`${portFile} is not part of the program`);
  const rootInterface = source.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === interfaceName,
  );
  if (!rootInterface) throw new Error(`${portFile} declares no interface ${interfaceName}`);

  const members = new Map<ts.Declaration, PortMember>();
  for (const declaration of portInterfaces(checker, rootInterface, path.dirname(source.fileName))) {
    for (const member of declaration.members) {
      if (!member.name || !ts.isIdentifier(member.name)) continue;
      members.set(member, {
        name: `${declaration.name.text}.${member.name.text}`,
        callers: { product: [], test: [], tooling: [] },
      });
    }
  }
  const memberNames = new Set([...members.values()].map((member) => member.name.split('.')[1]));

  const record = (symbol: ts.Symbol | undefined, file: string) => {
    for (const declaration of symbol?.getDeclarations() ?? []) {
      const member = members.get(declaration);
      if (!member) continue;
      const callers = member.callers[fileRole(file)];
      if (!callers.includes(file)) callers.push(file);
    }
  };

  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || file.fileName.includes('/node_modules/')) continue;
    const relative = path.relative(root, file.fileName);
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && memberNames.has(node.name.text)) {
        record(checker.getSymbolAtLocation(node.name), relative);
      } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        const key = node.propertyName ?? node.name;
        if (ts.isIdentifier(key) && memberNames.has(key.text)) {
          record(checker.getTypeAtLocation(node.parent).getProperty(key.text), relative);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return [...members.values()];
}
