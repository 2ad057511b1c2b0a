export { GET } from "@/app/api/runs/[id]/route";
