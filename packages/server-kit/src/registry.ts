import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/server';
import { UriTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { AnyPrompt } from './define-prompt.js';
import type { ResourceDefinition, StaticResourceDefinition, TemplateResourceDefinition } from './define-resource.js';
import { defineResource } from './define-resource.js';
import type { AnyTool } from './define-tool.js';
import { toolArgumentsChecker } from './define-tool.js';
import { KitError } from './errors.js';
import type { SchemaCheck } from './json-schema.js';
import { toolJsonSchema } from './json-schema.js';
import { assertPromptName, assertToolName } from './names.js';
import { type ParamHeader, scanParamHeaders } from './param-headers.js';
import type { BudgetOptions } from './result-budget.js';

const emptyObject = z.object({});

/** A tool with its wire listing computed once. */
export interface RegisteredTool {
  definition: AnyTool;
  /** Checks the arguments of a call against the tool's input schema (zod or JSON Schema). */
  checkArguments(args: unknown): SchemaCheck | Promise<SchemaCheck>;
  listing: Tool;
  /** The arguments a 2026-07-28 client mirrors into `Mcp-Param-*` headers (`x-mcp-header` in the input schema). */
  paramHeaders: readonly ParamHeader[];
  /** How the tool's results are cut to its budget (hint, media budget, output schema), made once for every call. */
  budgetOptions: BudgetOptions;
}

/** A template with its parsed URI template. */
export interface RegisteredTemplate {
  definition: TemplateResourceDefinition;
  matcher: UriTemplate;
  listing: ResourceTemplate;
}

/** A prompt with its wire listing computed once. */
export interface RegisteredPrompt {
  definition: AnyPrompt;
  listing: Prompt;
}

function toolListing(tool: AnyTool): Tool {
  const listing: Tool = {
    name: tool.name,
    description: tool.description,
    inputSchema: (tool.inputJsonSchema ?? toolJsonSchema(tool.input ?? emptyObject, 'input')) as Tool['inputSchema'],
  };
  if (tool.title) listing.title = tool.title;
  if (tool.output) listing.outputSchema = toolJsonSchema(tool.output, 'output') as Tool['outputSchema'];
  if (tool.annotations) listing.annotations = tool.annotations;
  return listing;
}

function budgetOptionsOf(tool: AnyTool): BudgetOptions {
  const options: BudgetOptions = {};
  if (tool.truncationHint !== undefined) options.hint = tool.truncationHint;
  if (tool.mediaBudget !== undefined) options.mediaBudget = tool.mediaBudget;
  const output = tool.output as z.ZodObject | undefined;
  if (output) options.accepts = (structured) => output.safeParse(structured).success;
  return options;
}

function promptListing(prompt: AnyPrompt): Prompt {
  const listing: Prompt = { name: prompt.name };
  if (prompt.title) listing.title = prompt.title;
  if (prompt.description) listing.description = prompt.description;
  if (prompt.arguments) {
    listing.arguments = Object.entries(prompt.arguments.shape as Record<string, z.ZodType>).map(([name, schema]) => {
      const argument: NonNullable<Prompt['arguments']>[number] = {
        name,
        required: !schema.safeParse(undefined).success,
      };
      if (schema.description) argument.description = schema.description;
      return argument;
    });
  }
  return listing;
}

function resourceFields(definition: ResourceDefinition) {
  return {
    name: definition.name,
    ...(definition.title ? { title: definition.title } : {}),
    ...(definition.description ? { description: definition.description } : {}),
    ...(definition.mimeType ? { mimeType: definition.mimeType } : {}),
    ...(definition.annotations ? { annotations: definition.annotations } : {}),
  };
}

/** The tools, resources and prompts of one server; validates uniqueness and keeps wire listings cached. */
export class Registry {
  readonly tools = new Map<string, RegisteredTool>();
  readonly resources = new Map<string, { definition: StaticResourceDefinition; listing: Resource }>();
  readonly templates = new Map<string, RegisteredTemplate>();
  readonly prompts = new Map<string, RegisteredPrompt>();

  addTool(tool: AnyTool): void {
    assertToolName(tool.name);
    if (this.tools.has(tool.name)) {
      throw new KitError('DUPLICATE_NAME', `Two tools are named "${tool.name}": tool names must be unique.`);
    }
    const checkArguments = toolArgumentsChecker(tool);
    const listing = toolListing(tool);
    const scan = scanParamHeaders(listing.inputSchema);
    if ('fault' in scan) throw new KitError('INVALID_DEFINITION', `Tool "${tool.name}": ${scan.fault}`);
    this.tools.set(tool.name, {
      definition: tool,
      checkArguments,
      listing,
      paramHeaders: scan.headers,
      budgetOptions: budgetOptionsOf(tool),
    });
  }

  addResource(resource: ResourceDefinition): void {
    defineResource(resource);
    if (resource.uri !== undefined) {
      if (this.resources.has(resource.uri)) {
        throw new KitError(
          'DUPLICATE_URI',
          `Two resources have the URI "${resource.uri}": resource URIs must be unique.`,
        );
      }
      const listing: Resource = { uri: resource.uri, ...resourceFields(resource) };
      if (resource.size !== undefined) listing.size = resource.size;
      this.resources.set(resource.uri, { definition: resource, listing });
      return;
    }
    const template = resource.template as string;
    if (this.templates.has(template)) {
      throw new KitError('DUPLICATE_URI', `Two resource templates are "${template}": templates must be unique.`);
    }
    let matcher: UriTemplate;
    try {
      matcher = new UriTemplate(template);
    } catch (error) {
      throw new KitError('INVALID_DEFINITION', `Resource template "${template}" is not a valid URI template.`, {
        cause: error,
      });
    }
    this.templates.set(template, {
      definition: resource as TemplateResourceDefinition,
      matcher,
      listing: { uriTemplate: template, ...resourceFields(resource) },
    });
  }

  addPrompt(prompt: AnyPrompt): void {
    assertPromptName(prompt.name);
    if (this.prompts.has(prompt.name)) {
      throw new KitError('DUPLICATE_NAME', `Two prompts are named "${prompt.name}": prompt names must be unique.`);
    }
    this.prompts.set(prompt.name, { definition: prompt, listing: promptListing(prompt) });
  }

  /** Removes a resource by URI or template; true when there was one. */
  removeResource(uriOrTemplate: string): boolean {
    return this.resources.delete(uriOrTemplate) || this.templates.delete(uriOrTemplate);
  }
}
