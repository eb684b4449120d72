import { toolEnv } from "@/tools/env";

export const BASE_URL = `http://127.0.0.1:${toolEnv().E2E_PORT}`;
