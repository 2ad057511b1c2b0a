export { GET } from "@/app/api/runs/[id]/bundle/route";
