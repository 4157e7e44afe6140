import { Node, Project } from "ts-morph";
const project = new Project({ skipAddingFilesFromTsConfig: true });
project.addSourceFilesAtPaths(["runtime/*/src/**/*.ts"]);
for (const file of project.getSourceFiles()) {
  file.forEachDescendant((node) => {
    if ((Node.isAsExpression(node) && node.getTypeNode()?.getText() !== "const") || Node.isTypeAssertion(node))
      console.log(`${file.getFilePath().replace(/.*runtime\//, "")}:${node.getStartLineNumber()}: ${node.getText().slice(0, 120).replace(/\n/g, " ")}`);
  });
}
